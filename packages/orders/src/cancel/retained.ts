import type { Order } from "../state";

/**
 * The value an order keeps for a following change (RespendInd, issue 20 item 6; docs/servicing.md
 * "keeping the value"): the one place its rules are read.
 *
 * - Kept: an items cancellation with RespendInd true refunds nothing; what it would have refunded
 *   is added here (cancel/items-quote.ts). It lapses at the order's first departure (read as UTC,
 *   the moment the order can no longer be cancelled), the earliest of its retentions'.
 * - Spent: an addition (servicing/add) or a flight change (servicing/flight) costing something
 *   takes it off what is due, down to zero; what is left stays retained.
 * - Refunded: whole, by a cancellation of the order (cancel/terms.ts), or by its lapse
 *   (cancel/retained-lapse.ts), to the captured legs newest first.
 * Money: total + retained = captured - refunded, in integer minor units, never negative.
 */
export function retainedOf(order: Pick<Order, "retained">): number {
  return Math.max(0, order.retained?.amountMinor ?? 0);
}

/** What a change costing `dueMinor` takes from the retained value, and what is left to pay. */
export function spendRetained(order: Pick<Order, "retained">, dueMinor: number): { spentMinor: number; dueMinor: number } {
  const spentMinor = Math.min(retainedOf(order), Math.max(0, dueMinor));
  return { spentMinor, dueMinor: dueMinor - spentMinor };
}
