import type { OrderEvent } from "../actor/events";
import type { Order } from "../state";

/**
 * What accounting is told about a money event (spec 6, accounting.sales_info): a sale (the order
 * booked and paid), a change (a post-sale charge: extras, a seat, a flight change), a refund (a
 * cancellation's money given back, or kept) or a void (a payment attempt declined, every leg it
 * authorised released). docs/notifications.md states the codes.
 */
export type SalesTransactionCode = "SALE" | "CHANGE" | "REFUND" | "VOID";

export interface SalesTransaction {
  code: SalesTransactionCode;
  /** The order items the money event is about (a sale, a refund, a void: all; a change: its own). */
  orderItemIds: string[];
  /** The payment legs it moved, as the ledger names them. */
  legIds: string[];
  at: number;
}

/**
 * The money event one write of an order records, if any: a pure reading of the events the order
 * actor journals in that write, so the report is decided exactly once, with the write (a retried
 * command journals nothing, and reports nothing).
 *
 * A sale or a change is reported when its money is taken (the write recording the captures of its
 * legs: the close of OrderCreate, of a payment retry, of a post-sale change, or the reconciler's),
 * a change that costs nothing when it is made. A void when a payment attempt is declined (every
 * leg it authorised released), a refund when a cancellation's money is given back (or, with
 * nothing to give back, when the order is cancelled). A name correction, the expiry of an unpaid
 * order and the confirmation of holds move no money.
 */
export function salesTransactionOf(events: readonly OrderEvent[], after: Order): SalesTransaction | undefined {
  const all = after.items.map((i) => i.orderItemId);
  for (const e of events) {
    switch (e.type) {
      case "created":
        if (e.order.state === "held_payment_declined") return { code: "VOID", orderItemIds: all, legIds: e.order.legs.map((l) => l.legId), at: e.order.createdAt };
        break;
      case "payment_declined":
        return { code: "VOID", orderItemIds: all, legIds: e.legs.map((l) => l.legId), at: e.at };
      case "payment_captured": {
        const refs = new Set(after.legs.filter((l) => e.legIds.includes(l.legId)).map((l) => l.changeRef));
        const charge = after.charges?.find((c) => refs.has(c.changeRef));
        return charge ? { code: "CHANGE", orderItemIds: charge.orderItemIds, legIds: e.legIds, at: e.at } : { code: "SALE", orderItemIds: all, legIds: e.legIds, at: e.at };
      }
      case "items_added":
      case "flights_changed":
        if (e.legs.length === 0) return { code: "CHANGE", orderItemIds: e.charge.orderItemIds, legIds: [], at: e.at };
        break;
      case "cancelled":
        // Nothing to give back (a fare kept whole): the cancellation is the refund of nothing, told now.
        if (e.cancellation.refundMinor === 0) return { code: "REFUND", orderItemIds: all, legIds: [], at: e.at };
        break;
      case "refunded":
        return { code: "REFUND", orderItemIds: all, legIds: e.legs.map((l) => l.legId), at: e.at };
    }
  }
  return undefined;
}
