import type { Order, OrderEvent, OrderPersistHook } from "@ndc/orders";
import { atEndOfWrite, type StoreDb } from "@ndc/store";
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
 * ChangeTypeCode of a change the airline's own staff made (staff API or console, decision 0035),
 * by the journal event that records it (OrderHistoryRS's codes for the same change); ReasonCode
 * says whether a fare rule was overridden (SHPOR1 rule 4).
 */
export const STAFF_CHANGE_CODES = {
  cancelled: "ORDER_CANCELLED",
  items_cancelled: "ITEMS_CANCELLED",
  flights_changed: "FLIGHTS_CHANGED",
  items_added: "ITEMS_ADDED",
  pax_updated: "PAX_UPDATED",
  reason: "AIRLINE_STAFF",
  reasonOverride: "AIRLINE_STAFF_OVERRIDE",
} as const;

/**
 * The CurrentOrder element of an OrderChangeNotifRQ: the order as OrderViewRS shows it, without
 * identity documents (spec 6), read in the write's transaction (the gateway's message encoders;
 * packages/notifications holds none). Null when it cannot be built: the push goes without it.
 */
export type CurrentOrderEncoder = (tx: StoreDb, order: Order) => Promise<XNode | null>;

/** The change a write by the airline's staff records, if any, in the push's codes. */
function staffChangeOf(events: readonly OrderEvent[]): { changeTypeCode: string; reasonCode: string } | undefined {
  for (const e of events) {
    const by =
      e.type === "cancelled" || e.type === "items_cancelled"
        ? { staffId: e.cancellation.staffId, override: e.cancellation.override }
        : e.type === "flights_changed" || e.type === "items_added" || e.type === "pax_updated"
          ? { staffId: e.staffId, override: "override" in e ? e.override : undefined }
          : undefined;
    if (!by?.staffId) continue;
    return { changeTypeCode: STAFF_CHANGE_CODES[e.type as keyof typeof STAFF_CHANGE_CODES], reasonCode: by.override ? STAFF_CHANGE_CODES.reasonOverride : STAFF_CHANGE_CODES.reason };
  }
  return undefined;
}

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
 * airline change of its flights or a change by the airline's staff (order.changed), services
 * delivered (service.delivered), the closing check's move to Closed (order.closed).
 */
export function orderNotifications(carrier: string, opts: { deliveredOrder?: DeliveredOrderEncoder; currentOrder?: CurrentOrderEncoder } = {}): OrderPersistHook {
  return async (tx, { events, after, now }) => {
    const base = { carrier, sellerAgencyId: after.owner.agencyId, orderId: after.orderId, orderVersion: after.version, changedAt: now };
    const to = { agencyId: after.owner.agencyId, orderId: after.orderId };
    const change = orderChangeOf(events);
    if (change) {
      // The snapshot reads the order's legs, and the same write may record more of them after this
      // hook (a refund, a capture): built at the end of the write, as the stored view is, and only
      // for an agency that subscribes to the event.
      atEndOfWrite(tx, `notif:${after.orderId}:${after.version}`, async (end) => {
        await enqueue(end, { event: change.event, ...to, body: async () => orderChangeNotifRQ({ ...base, ...change.codes, currentOrder: await opts.currentOrder?.(end, after) }) }, now);
      });
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

/**
 * The OrderChangeNotifRQ one write of the order calls for, if any: the order cancelled at its
 * payment time limit (order.payment_expired); otherwise an airline change (order.changed): its
 * flights retimed or cancelled by operations (one push per write: a cancelled flight outranks a
 * retime done with it), or a change made by the airline's staff.
 */
function orderChangeOf(events: readonly OrderEvent[]): { event: "order.payment_expired" | "order.changed"; codes: { changeTypeCode: string; reasonCode: string } } | undefined {
  if (events.some((e) => e.type === "payment_expired")) return { event: "order.payment_expired", codes: PAYMENT_EXPIRED_CODES };
  const changes = events.flatMap((e) => (e.type === "schedule_changed" ? [e.change] : []));
  if (changes.length) {
    const change = changes.find((c) => c.kind === "cancel") ?? changes[0]!;
    return { event: "order.changed", codes: { changeTypeCode: SCHEDULE_CHANGE_TYPE_CODES[change.kind], reasonCode: change.reasonCode } };
  }
  const staff = staffChangeOf(events);
  return staff ? { event: "order.changed", codes: staff } : undefined;
}
