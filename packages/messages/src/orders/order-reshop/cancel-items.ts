import { GatewayError } from "@ndc/errors";
import { invalid, list, optText, reqText, type Cursor } from "../../shopping/shared/cursor";
import type { ReshopForm } from "./request";

/**
 * ReshopOrder/ServiceOrder with DeleteOrderItem and no AddOfferItems (24.4
 * AffectedOrderItemRequestType: OrderItemRefID, RespendInd, RetainServiceID): a quote to cancel
 * those items of the order, refunded (issue 9 item 4, docs/servicing.md). 24.4's
 * AcceptCancelOfferType is "a cancellation offer (coming from an offer with deleted order items)
 * which instructs the airline to cancel components of an order": its OrderChangeRQ commit.
 * RespendInd true keeps the amount for a following change instead of refunding it (issue 20 item
 * 6, docs/servicing.md "keeping the value"): one quote keeps or refunds, so every DeleteOrderItem
 * must say the same. Keeping some services of an item (RetainServiceID) is not offered: refused,
 * never silently read as a plain cancellation.
 */
export function cancelItems(serviceOrder: Cursor, deletes: Cursor[]): Extract<ReshopForm, { form: "cancelItems" }> {
  const respends = deletes.map((d) => {
    const respend = optText(d, "RespendInd");
    if (respend !== undefined && !["true", "false", "1", "0"].includes(respend)) throw invalid(`${d.path}/RespendInd`, "RespendInd is an xs:boolean (IndType).");
    if (list(d, "RetainServiceID").length) {
      throw new GatewayError("change_not_supported", { detail: "RetainServiceID (keeping part of an item) is not offered: an item is cancelled whole.", element: `${d.path}/RetainServiceID` });
    }
    return respend === "true" || respend === "1";
  });
  const respend = respends[0] ?? false;
  const other = respends.findIndex((r) => r !== respend);
  if (other >= 0) throw invalid(`${deletes[other]!.path}/RespendInd`, "Every DeleteOrderItem of one quote keeps the amount (RespendInd true) or has it refunded: send the same RespendInd on each.");
  return { form: "cancelItems", orderItemIds: deletes.map((d) => reqText(d, "OrderItemRefID")), respend, at: `${serviceOrder.path}/DeleteOrderItem` };
}
