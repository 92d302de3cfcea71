import { el, type XNode } from "@ndc/xml";
import { processing, warning } from "../../shopping/shared/encode/common";
import { orderDataLists } from "../shared/encode/data-lists";
import { order } from "../shared/encode/order";
import { paymentFunctions } from "../shared/encode/payment";
import type { OrderView } from "../shared/view/order";

/**
 * IATA_OrderViewRS in two parts, because the schema splits them: the Response element
 * (OrderViewResponseType) and the root-level PaymentFunctions that follow PayloadAttributes.
 * Use: responseDocument(root, r.response, ctx, r.trailing).
 */
export function encodeOrderViewRS(v: OrderView): { response: XNode; trailing: XNode[] } {
  const response = el("Response", null, orderDataLists(v.dataLists), order(v), processing(v.processing), v.warnings.map(warning));
  return { response, trailing: v.payments.map((p) => paymentFunctions(v.orderId, p)) };
}
