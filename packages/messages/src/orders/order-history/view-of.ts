import type { ChangeKind, HistoryEntry, Order, OrderItem } from "@ndc/orders";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import { money } from "../../shopping/shared/view/money";
import { ORDER_STATUS_CODES } from "../shared/view/status-codes";
import type { ChangeDetailsView, OrderChangeOperationView, OrderHistoryView } from "./view";

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
};

/** Why: the seller asked (create, pay), the booking completed its own steps, or the time limit ran out. */
const REASON_CODES: Readonly<Record<ChangeKind, string>> = {
  created: "SELLER_REQUEST",
  payment_authorised: "SELLER_REQUEST",
  payment_declined: "SELLER_REQUEST",
  payment_captured: "BOOKING_COMPLETED",
  inventory_confirmed: "BOOKING_COMPLETED",
  payment_expired: "TIME_LIMIT_EXPIRED",
  items_added: "SELLER_REQUEST",
  cancelled: "SELLER_REQUEST",
  refunded: "CANCELLATION_COMPLETED",
  pax_updated: "SELLER_REQUEST",
};

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
  const op: OrderChangeOperationView = { at: new Date(e.at).toISOString(), typeCode: TYPE_CODES[e.kind], reasonCode: REASON_CODES[e.kind] };
  const next: ChangeDetailsView = { statusCode: ORDER_STATUS_CODES[e.state] };
  // Post-sale changes' items and charges are theirs, not the creation's (the n-th items_added is the n-th charge).
  const charges = order.charges ?? [];
  const later = new Set(charges.flatMap((c) => c.orderItemIds));
  if (e.kind === "created") {
    next.totalPrice = money(order.totalMinor - charges.reduce((s, c) => s + c.amountMinor, 0), order.currency, minorUnits(order.currency as CurrencyCode));
    next.items = order.items.filter((i) => !later.has(i.orderItemId)).map((i) => ({ orderItemId: i.orderItemId, statusCode: e.state === "booked" ? "CONFIRMED" : "HELD", description: describe(i, order) }));
  }
  if (e.kind === "items_added") {
    const charge = charges[order.history.filter((h) => h.kind === "items_added" && h.version <= e.version).length - 1];
    const added = new Set(charge?.orderItemIds ?? []);
    next.items = order.items.filter((i) => added.has(i.orderItemId)).map((i) => ({ orderItemId: i.orderItemId, statusCode: "CONFIRMED", description: describe(i, order) }));
  }
  if (e.kind === "inventory_confirmed") {
    next.items = order.items.filter((i) => i.kind === "seat" || i.kind === "partner_product").map((i) => ({ orderItemId: i.orderItemId, statusCode: "CONFIRMED", description: describe(i, order) }));
  }
  if (e.kind === "cancelled") {
    // The whole order goes (24.4 cancels whole orders): every item, with what it was.
    next.items = order.items.map((i) => ({ orderItemId: i.orderItemId, statusCode: "CANCELLED", description: describe(i, order) }));
  }
  if (previous && previous.state !== e.state) op.old = { statusCode: ORDER_STATUS_CODES[previous.state] };
  op.new = next;
  return op;
}

/** OrderHistoryRS of an order: each version, oldest first, one ChangeOperation each. Pure. */
export function orderHistoryViewOf(order: Order): OrderHistoryView {
  const entries = order.history;
  return {
    orderId: order.orderId,
    versions: entries.map((e, i) => ({ versionNumber: e.version, changes: [operation(e, entries[i - 1], order)] })),
  };
}
