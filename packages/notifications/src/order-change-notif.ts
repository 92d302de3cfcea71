import { el, serialize, NS } from "@ndc/xml";
import { notificationChain } from "./chain";

export interface OrderChangeNotif {
  carrier: string;
  sellerAgencyId: string;
  orderId: string;
  orderVersion: number;
  changedAt: number;
  /** docs/notifications.md lists the values. */
  changeTypeCode: string;
  reasonCode: string;
}

/**
 * IATA_OrderChangeNotifRQ (spec 4.9): the change, the order's id and its version after the change.
 * It carries no order snapshot (CurrentOrder is optional): nothing pushed can hold an identity
 * document or a card number, and the seller reads the order with OrderRetrieveRQ.
 */
export function orderChangeNotifRQ(n: OrderChangeNotif): string {
  return serialize(
    el(
      "IATA_OrderChangeNotifRQ",
      { xmlns: NS.message, "xmlns:cns": NS.common },
      notificationChain(n.carrier, n.sellerAgencyId),
      el(
        "Notification",
        null,
        el(
          "ChangeGroup",
          null,
          el(
            "ChangeOperationGroup",
            null,
            el("ChangeOperation", null, el("ChangeDateTime", null, new Date(n.changedAt).toISOString()), el("ChangeTypeCode", null, n.changeTypeCode), el("ReasonCode", null, n.reasonCode)),
            el("OrderVersionNumber", null, n.orderVersion),
          ),
        ),
        el("OrderRefID", null, n.orderId),
      ),
    ),
  );
}

