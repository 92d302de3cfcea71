import type { Order, OrderEvent, OrderPersistHook } from "@ndc/orders";
import type { StoreDb } from "@ndc/store";
import type { XNode } from "@ndc/xml";
import { enqueue } from "./outbox";
import { orderChangeNotifRQ } from "./order-change-notif";
import { orderClosingNotifRQ } from "./order-closing-notif";
import { serviceDeliveryNotifRQ } from "./service-delivery-notif";

/** ChangeTypeCode and ReasonCode of an order cancelled at its payment time limit (docs/notifications.md). */
export const PAYMENT_EXPIRED_CODES = { changeTypeCode: "ORDER_CANCELLED", reasonCode: "PAYMENT_TIME_LIMIT_EXPIRED" } as const;

/** ChangeTypeCode of an airline change: a retime, or a cancelled flight (the order then waits for re-accommodation). */
export const SCHEDULE_CHANGE_TYPE_CODES = { retime: "SCHEDULE_CHANGE", cancel: "FLIGHT_CANCELLED" } as const;

/**
 * Builds the Order element of a ServiceDeliveryNotifRQ for these items of the order, as of the
 * write's transaction (the gateway's message encoders; packages/notifications holds none).
 */
export type DeliveredOrderEncoder = (tx: StoreDb, order: Order, orderItemIds: readonly string[]) => Promise<XNode | null>;

/** The services a change delivers: a seat sold for nothing on a flight that flew, a partner product its partner fulfilled. */
function deliveredItems(events: readonly OrderEvent[], after: Order): string[] {
  const ids = new Set<string>();
  for (const e of events) {
    if (e.type === "flights_flown") {
      for (const i of after.items) if (i.kind === "seat" && i.totalMinor === 0 && i.flightKeys?.some((k) => e.flightKeys.includes(k))) ids.add(i.orderItemId);
    }
    if (e.type === "partner_delivered") for (const id of e.orderItemIds) ids.add(id);
  }
  return [...ids];
}

/**
 * The order actor's persist hook: an order change that sellers are told about writes its
 * notification into the outbox in the change's own transaction: payment expired (spec 3), an
 * airline change of its flights (order.changed), services delivered (service.delivered), the
 * closing check's move to Closed (order.closed).
 */
export function orderNotifications(carrier: string, opts: { deliveredOrder?: DeliveredOrderEncoder } = {}): OrderPersistHook {
  return async (tx, { events, after, now }) => {
    const base = { carrier, sellerAgencyId: after.owner.agencyId, orderId: after.orderId, orderVersion: after.version, changedAt: now };
    const to = { agencyId: after.owner.agencyId, orderId: after.orderId };
    if (events.some((e) => e.type === "payment_expired")) {
      await enqueue(tx, { event: "order.payment_expired", ...to, body: orderChangeNotifRQ({ ...base, ...PAYMENT_EXPIRED_CODES }) }, now);
    }
    const changes = events.flatMap((e) => (e.type === "schedule_changed" ? [e.change] : []));
    if (changes.length) {
      // One push per write: a cancelled flight outranks a retime done with it.
      const change = changes.find((c) => c.kind === "cancel") ?? changes[0]!;
      await enqueue(tx, { event: "order.changed", ...to, body: orderChangeNotifRQ({ ...base, changeTypeCode: SCHEDULE_CHANGE_TYPE_CODES[change.kind], reasonCode: change.reasonCode }) }, now);
    }
    const delivered = deliveredItems(events, after);
    if (delivered.length && opts.deliveredOrder) {
      const order = await opts.deliveredOrder(tx, after, delivered);
      if (order) await enqueue(tx, { event: "service.delivered", ...to, body: serviceDeliveryNotifRQ({ carrier, sellerAgencyId: after.owner.agencyId, order }) }, now);
    }
    if (events.some((e) => e.type === "closed")) {
      await enqueue(tx, { event: "order.closed", ...to, body: orderClosingNotifRQ(base) }, now);
    }
  };
}
