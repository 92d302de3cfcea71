import { el, serialize, NS, type XNode } from "@ndc/xml";
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
  /** The order after the change, as OrderViewRS shows it without identity documents (spec 6): a CurrentOrder element. */
  currentOrder?: XNode | null;
}

/**
 * IATA_OrderChangeNotifRQ (spec 4.9): the change, the order's version after it, the changed order
 * (CurrentOrder, for sellers that cannot store the orders they are sent; spec 6: without identity
 * documents) and the order's id.
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
        n.currentOrder ?? null,
        el("OrderRefID", null, n.orderId),
      ),
    ),
  );
}

