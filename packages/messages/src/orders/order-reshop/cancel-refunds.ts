import type { OrderItem } from "@ndc/orders";

/** One cancelled item's money in a cancel quote (integer minor units): its value, what of it comes back, the fee kept from it. */
export interface ItemRefund {
  oldMinor: number;
  refundMinor: number;
  feeMinor: number;
}

/**
 * The quote's refund and penalty split over the items that go, so each DeleteOrderItem can
 * carry them structured (issue 20 item 7) and the shares add up to the quote exactly. The domain
 * prices a cancellation per order, not per item, so the split is the gateway's reading of its
 * terms: extras are refunded first (a non-refundable fare refunds extras only), then flights, each
 * up to its own value, anything beyond the items' values (an amount paid but not on an item) on the
 * last; the penalty is a fare's fee, so it is kept from the flight items' unrefunded value first.
 * Pure.
 */
export function itemRefundsOf(items: readonly Pick<OrderItem, "kind" | "totalMinor">[], refundMinor: number, penaltyMinor: number): ItemRefund[] {
  const out: ItemRefund[] = items.map((i) => ({ oldMinor: i.totalMinor, refundMinor: 0, feeMinor: 0 }));
  const extrasFirst = [...out.keys()].sort((a, b) => Number(items[a]!.kind === "flight") - Number(items[b]!.kind === "flight"));
  let left = refundMinor;
  for (const i of extrasFirst) {
    const share = Math.min(left, Math.max(0, out[i]!.oldMinor));
    out[i]!.refundMinor = share;
    left -= share;
  }
  if (left > 0 && out.length) out[out.length - 1]!.refundMinor += left;
  let fee = penaltyMinor;
  const flightsFirst = [...extrasFirst].reverse();
  for (const i of flightsFirst) {
    const share = Math.min(fee, Math.max(0, out[i]!.oldMinor - out[i]!.refundMinor));
    out[i]!.feeMinor = share;
    fee -= share;
  }
  if (fee > 0 && out.length) out[flightsFirst[0]!]!.feeMinor += fee;
  return out;
}
