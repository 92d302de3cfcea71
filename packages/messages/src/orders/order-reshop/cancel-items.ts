import { GatewayError } from "@ndc/errors";
import { invalid, list, optText, reqText, type Cursor } from "../../shopping/shared/cursor";
import type { ReshopForm } from "./request";

/**
 * ReshopOrder/ServiceOrder with DeleteOrderItem and no AddOfferItems (24.4
 * AffectedOrderItemRequestType: OrderItemRefID, RespendInd, RetainServiceID): a quote to cancel
 * those items of the order, refunded (issue 9 item 4, docs/servicing.md). 24.4's
 * AcceptCancelOfferType is "a cancellation offer (coming from an offer with deleted order items)
 * which instructs the airline to cancel components of an order": its OrderChangeRQ commit.
 * Keeping the amount to spend again (RespendInd true) and keeping some services of an item
 * (RetainServiceID) are not offered: refused, never silently read as a plain refund.
 */
export function cancelItems(serviceOrder: Cursor, deletes: Cursor[]): Extract<ReshopForm, { form: "cancelItems" }> {
  for (const d of deletes) {
    const respend = optText(d, "RespendInd");
    if (respend !== undefined && !["true", "false", "1", "0"].includes(respend)) throw invalid(`${d.path}/RespendInd`, "RespendInd is an xs:boolean (IndType).");
    if (respend === "true" || respend === "1") {
      throw new GatewayError("change_not_supported", { detail: "RespendInd true (keeping the amount to spend again) is not offered: cancelled items are refunded.", element: `${d.path}/RespendInd` });
    }
    if (list(d, "RetainServiceID").length) {
      throw new GatewayError("change_not_supported", { detail: "RetainServiceID (keeping part of an item) is not offered: an item is cancelled whole.", element: `${d.path}/RetainServiceID` });
    }
  }
  return { form: "cancelItems", orderItemIds: deletes.map((d) => reqText(d, "OrderItemRefID")), at: `${serviceOrder.path}/DeleteOrderItem` };
}
