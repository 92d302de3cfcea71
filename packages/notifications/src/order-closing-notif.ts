import { c, el, NS, serialize } from "@ndc/xml";
import { notificationChain } from "./chain";

/**
 * IATA_OrderClosingNotifRQ (spec 4.9): the order that closed, by OrderID and OwnerCode, with its
 * version after closing (OrderVersionNumber, optional in OrderKeyType). Nothing about passengers.
 */
export function orderClosingNotifRQ(n: { carrier: string; sellerAgencyId: string; orderId: string; orderVersion: number }): string {
  return serialize(
    el(
      "IATA_OrderClosingNotifRQ",
      { xmlns: NS.message, "xmlns:cns": NS.common },
      notificationChain(n.carrier, n.sellerAgencyId),
      el("Request", null, c("Order", c("OrderID", n.orderId), c("OrderVersionNumber", n.orderVersion), c("OwnerCode", n.carrier))),
    ),
  );
}
