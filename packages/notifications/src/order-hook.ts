import type { OrderPersistHook } from "@ndc/orders";
import { enqueue } from "./outbox";
import { orderChangeNotifRQ } from "./order-change-notif";
import { orderClosingNotifRQ } from "./order-closing-notif";

/** ChangeTypeCode and ReasonCode of an order cancelled at its payment time limit (docs/notifications.md). */
export const PAYMENT_EXPIRED_CODES = { changeTypeCode: "ORDER_CANCELLED", reasonCode: "PAYMENT_TIME_LIMIT_EXPIRED" } as const;

/**
 * The order actor's persist hook: an order change that sellers are told about writes its
 * notification into the outbox in the change's own transaction (spec 3: payment expired; the
 * closing check's move to Closed).
 */
export function orderNotifications(carrier: string): OrderPersistHook {
  return async (tx, { events, after, now }) => {
    const seller = { carrier, sellerAgencyId: after.owner.agencyId, orderId: after.orderId, orderVersion: after.version };
    if (events.some((e) => e.type === "payment_expired")) {
      const body = orderChangeNotifRQ({ ...seller, changedAt: now, ...PAYMENT_EXPIRED_CODES });
      await enqueue(tx, { event: "order.payment_expired", agencyId: after.owner.agencyId, orderId: after.orderId, body }, now);
    }
    if (events.some((e) => e.type === "closed")) {
      await enqueue(tx, { event: "order.closed", agencyId: after.owner.agencyId, orderId: after.orderId, body: orderClosingNotifRQ(seller) }, now);
    }
  };
}
