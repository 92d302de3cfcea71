import type { Order } from "../state";
import type { OrderEvent } from "./events";

/**
 * Order.totalMinor, the one rule: what the order's items are worth now, in minor units of its
 * currency (adjustments included). It is set at creation and changes only when the items do:
 * an addition (items_added) and a flight change (flights_changed) add their charge, fee included;
 * cancelled items (items_cancelled) take off what was refunded, retained (RespendInd) or voided
 * for them. A whole cancellation and a refund leave it as it was: the order still says what was
 * sold, and its legs (the ledger) say what was paid back. While booked,
 * total + retained = captured - refunded over the order's legs (cancel/retained.ts).
 */
export function totalAfter(order: Pick<Order, "totalMinor"> | null, e: OrderEvent): number {
  switch (e.type) {
    case "created":
      return e.order.totalMinor;
    case "items_added":
    case "flights_changed":
      return order!.totalMinor + e.charge.amountMinor;
    case "items_cancelled": {
      const c = e.cancellation;
      // What is retained leaves the total as a refund would.
      return order!.totalMinor - c.refundMinor - (c.retainedMinor ?? 0) - (c.voided ?? []).reduce((n, v) => n + v.amountMinor, 0);
    }
    default:
      return order!.totalMinor;
  }
}
