import { invalid, reqText, type Cursor } from "../../shopping/shared/cursor";
import type { OrderReshopRequest } from "./request";

/**
 * UpdateOrder/CancelOrderRef (CancelOrderRefType: OrderRefID only): the whole order. The
 * reference must name the order of Request/OrderRefID: a message about one order naming another
 * is malformed, not a second order to cancel.
 */
export function cancelOrderRef(cancel: Cursor, orderId: string): OrderReshopRequest {
  const ref = reqText(cancel, "OrderRefID");
  if (ref !== orderId) throw invalid(`${cancel.path}/OrderRefID`, "CancelOrderRef/OrderRefID must name the order of Request/OrderRefID.");
  return { form: "cancelOrder", orderId };
}
