import { refundOfChange, type ChangeKind, type HistoryEntry, type Order, type OrderDetails, type OrderItem } from "@ndc/orders";
import { orderViewOf } from "../order-view/view-of";
import { changePayments } from "./change-payments";
import type { PaymentLeg } from "@ndc/payments";
import type { OrderView } from "../shared/view/order";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import { money } from "../../shopping/shared/view/money";
import { ORDER_STATUS_CODES } from "../shared/view/status-codes";
import type { ChangeActorView, ChangeDetailsView, OrderChangeOperationView, OrderHistoryView } from "./view";

const TYPE_CODES: Readonly<Record<ChangeKind, string>> = {
  created: "ORDER_CREATED",
  payment_authorised: "PAYMENT_AUTHORISED",
  payment_declined: "PAYMENT_DECLINED",
  payment_captured: "PAYMENT_CAPTURED",
  inventory_confirmed: "INVENTORY_CONFIRMED",
  payment_expired: "PAYMENT_EXPIRED",
  items_added: "ITEMS_ADDED",
  cancelled: "ORDER_CANCELLED",
  refunded: "REFUNDED",
  pax_updated: "PAX_UPDATED",
  flights_changed: "FLIGHTS_CHANGED",
  closed: "ORDER_CLOSED",
  items_cancelled: "ITEMS_CANCELLED",
  schedule_changed: "SCHEDULE_CHANGED",
  flights_flown: "FLIGHTS_FLOWN",
  partner_delivered: "PARTNER_DELIVERED",
  retained_lapsed: "RETAINED_VALUE_LAPSED",
};

/** Why: the seller asked (create, pay), the booking completed its own steps, or the time limit ran out. A refund's is REFUND_REASON_CODES'. */
const REASON_CODES: Readonly<Record<Exclude<ChangeKind, "refunded">, string>> = {
  created: "SELLER_REQUEST",
  payment_authorised: "SELLER_REQUEST",
  payment_declined: "SELLER_REQUEST",
  payment_captured: "BOOKING_COMPLETED",
  inventory_confirmed: "BOOKING_COMPLETED",
  payment_expired: "TIME_LIMIT_EXPIRED",
  items_added: "SELLER_REQUEST",
  cancelled: "SELLER_REQUEST",
  pax_updated: "SELLER_REQUEST",
  flights_changed: "SELLER_REQUEST",
  closed: "SERVICES_DELIVERED_AND_SETTLED",
  items_cancelled: "SELLER_REQUEST",
  schedule_changed: "AIRLINE_OPERATIONS",
  flights_flown: "SERVICE_DELIVERED",
  partner_delivered: "SERVICE_DELIVERED",
  retained_lapsed: "TIME_LIMIT_EXPIRED",
};

/**
 * Why money was paid back, by the change the refund completes: one table for every refund (a
 * cancellation's entry names no change; a cheaper flight change's names its `change:<ref>`).
 */
const REFUND_REASON_CODES: Readonly<Partial<Record<ChangeKind, string>>> = {
  cancelled: "CANCELLATION_COMPLETED",
  items_cancelled: "CANCELLATION_COMPLETED",
  flights_changed: "FLIGHT_CHANGE_COMPLETED",
  retained_lapsed: "RETAINED_VALUE_LAPSED",
};

function reasonCode(e: HistoryEntry, order: Order): string {
  if (e.kind !== "refunded") return REASON_CODES[e.kind];
  const ref = refundOfChange(e);
  const cause = ref ? order.history.find((h) => h.kind !== "refunded" && h.changed.includes(`change:${ref}`))?.kind : "cancelled";
  return REFUND_REASON_CODES[cause ?? "cancelled"] ?? REFUND_REASON_CODES.cancelled!;
}

/** An item in English without personal data: what it is, for which passenger ids, on which flights. */
function describe(i: OrderItem, order: Order): string {
  const what = i.kind === "seat" ? `Seat ${i.ref ?? ""}`.trim() : i.kind === "partner_product" ? `Partner product ${i.ref ?? ""}`.trim() : i.kind === "flight" ? "Flights" : `${i.kind[0]!.toUpperCase()}${i.kind.slice(1).replace("_", " ")} ${i.ref ?? ""}`.trim();
  // A flight item covers every flight of the order; extras name theirs.
  const keys = i.kind === "flight" ? order.journeys.flatMap((j) => j.flightKeys) : (i.flightKeys ?? []);
  const flights = keys.length ? ` on ${keys.join(", ")}` : "";
  return `${what} for ${i.paxIds.join(", ")}${flights}`;
}

/**
 * One ChangeOperation per version: the state before and after when it moved, the items and
 * total at creation, the seats and partner units whose holds became sales, every item at a
 * cancellation. Legs are in the
 * order's ledger (OrderViewRS PaymentFunctions), not repeated here.
 */
function operation(e: HistoryEntry, previous: HistoryEntry | undefined, order: Order): OrderChangeOperationView {
  const op: OrderChangeOperationView = { at: new Date(e.at).toISOString(), typeCode: TYPE_CODES[e.kind], reasonCode: reasonCode(e, order) };
  const next: ChangeDetailsView = { statusCode: ORDER_STATUS_CODES[e.state] };
  // Post-sale changes' items and charges are theirs, not the creation's (the n-th items_added is the n-th charge).
  const charges = order.charges ?? [];
  const later = new Set(charges.flatMap((c) => c.orderItemIds));
  if (e.kind === "created") {
    next.totalPrice = money(order.totalMinor - charges.reduce((s, c) => s + c.amountMinor, 0), order.currency, minorUnits(order.currency as CurrencyCode));
    next.items = order.items.filter((i) => !later.has(i.orderItemId)).map((i) => ({ orderItemId: i.orderItemId, statusCode: e.state === "booked" ? "CONFIRMED" : "HELD", description: describe(i, order) }));
  }
  if (e.kind === "items_added") {
    // A flight change's charge is in the same list; its history entry names its changeRef.
    const flightRefs = new Set(order.history.filter((h) => h.kind === "flights_changed").flatMap((h) => h.changed.filter((c) => c.startsWith("change:")).map((c) => c.slice(7))));
    const charge = charges.filter((c) => !flightRefs.has(c.changeRef))[order.history.filter((h) => h.kind === "items_added" && h.version <= e.version).length - 1];
    const added = new Set(charge?.orderItemIds ?? []);
    next.items = order.items.filter((i) => added.has(i.orderItemId)).map((i) => ({ orderItemId: i.orderItemId, statusCode: "CONFIRMED", description: describe(i, order) }));
  }
  if (e.kind === "flights_changed") {
    // The flight items stay (each covers every direction); they now describe the new flights.
    next.items = order.items.filter((i) => i.kind === "flight").map((i) => ({ orderItemId: i.orderItemId, statusCode: "CONFIRMED", description: describe(i, order) }));
  }
  if (e.kind === "inventory_confirmed") {
    next.items = order.items.filter((i) => i.kind === "seat" || i.kind === "partner_product").map((i) => ({ orderItemId: i.orderItemId, statusCode: "CONFIRMED", description: describe(i, order) }));
  }
  if (e.kind === "cancelled") {
    // The whole order goes (24.4 cancels whole orders): every item, with what it was.
    next.items = order.items.map((i) => ({ orderItemId: i.orderItemId, statusCode: "CANCELLED", description: describe(i, order) }));
  }
  if (e.kind === "items_cancelled") {
    // The items as they were (they are no longer on the order).
    const c = order.itemCancellations?.find((x) => e.changed.includes(`change:${x.changeRef}`));
    next.items = (c?.items ?? []).map((i) => ({ orderItemId: i.orderItemId, statusCode: "CANCELLED", description: describe(i, order) }));
  }
  if (previous && previous.state !== e.state) op.old = { statusCode: ORDER_STATUS_CODES[previous.state] };
  op.new = next;
  return op;
}

/** The airline's own steps (the booking completing, the time limit, the refund), not a seller's request. */
const BY_AIRLINE: ReadonlySet<ChangeKind> = new Set<ChangeKind>(["payment_captured", "inventory_confirmed", "payment_expired", "refunded", "closed", "retained_lapsed"]);

function actorOf(e: HistoryEntry, order: Order, carrier: string): ChangeActorView {
  if (e.staffId) return { role: "Carrier", orgId: carrier, salesAgentId: e.staffId };
  return BY_AIRLINE.has(e.kind) ? { role: "Carrier", orgId: carrier } : { role: "Seller", orgId: order.owner.agencyId };
}

/**
 * OrderHistoryRS of an order: each version, oldest first, one ChangeOperation each, with who
 * made it (the carrier's code names the airline) and, given the order's versions (each as it was
 * then, identity documents omitted: OrdersService.historyVersions), the whole order before (Old)
 * and after (New) as OrderViewRS gives it, so the change is exactly what differs between them.
 * Each change's New also names the payments it made (change-payments.ts), their methods read from
 * `ledger` (the order's legs now; else each version's details' own). Without versions, only the
 * parts that changed. Pure.
 */
export function orderHistoryViewOf(order: Order, o: { carrier?: string; versions?: ReadonlyMap<number, OrderDetails>; ledger?: readonly PaymentLeg[] } = {}): OrderHistoryView {
  const entries = order.history;
  const views = new Map<number, OrderView>();
  const whole = (version: number): OrderView | undefined => {
    const d = o.versions?.get(version);
    if (!d) return undefined;
    if (!views.has(version)) views.set(version, orderViewOf(d, o.carrier ?? order.offers[0]?.ownerCode ?? "").view);
    return views.get(version);
  };
  return {
    orderId: order.orderId,
    versions: entries.map((e, i) => {
      const op = operation(e, entries[i - 1], order);
      const [before, after] = [whole(e.version - 1), whole(e.version)];
      if (after) {
        const d = o.versions!;
        const payments = changePayments(d.get(e.version - 1)?.order, d.get(e.version)!.order, o.ledger ?? d.get(e.version)!.legs, op.at);
        op.new = { order: after, ...(payments.length ? { payments } : {}) };
        if (before) op.old = { order: before };
        else delete op.old;
      }
      return { versionNumber: e.version, changes: [op], ...(o.carrier ? { actor: actorOf(e, order, o.carrier) } : {}) };
    }),
  };
}
