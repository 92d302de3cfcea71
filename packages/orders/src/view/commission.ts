import { percentOf, money, type CurrencyCode } from "@ndc/money";
import type { Order } from "../state";

export type OrderCommission = NonNullable<Order["commission"]>;

/**
 * The sale's commission as it stands after refunds (PAYCOM; issue 19 item 13c). The commission
 * is earned on what the airline keeps of the sale: the base frozen at booking, less what has been
 * paid back from the sale's own legs (a refund goes to every leg newest first, so an extra bought
 * post-sale and cancelled comes back from its own leg and leaves the sale's commission as it was).
 * Recomputed under the order's frozen rule, never the agency's agreement of today:
 * - percentage or tier: the frozen rate on the new base, rounded half away from zero (the tier
 *   reached at the sale stays: a refund does not move the sale into another tier);
 * - flat amount: kept while anything of the sale is kept, none once the sale is refunded in full.
 * Post-sale charges carry their own commission (PostSaleCharge), not part of PAYCOM's SALE line.
 */
export function commissionAsItStands(order: Pick<Order, "commission" | "legs" | "charges" | "currency">): OrderCommission | undefined {
  const c = order.commission;
  if (!c) return undefined;
  const charged = new Set((order.charges ?? []).map((x) => x.changeRef));
  const refundedOfSale = order.legs.filter((l) => !charged.has(l.changeRef)).reduce((n, l) => n + (l.refundedMinor ?? 0), 0);
  if (refundedOfSale === 0) return c;
  const basisMinor = Math.max(0, c.basisMinor - refundedOfSale);
  const bp = basisPointsOf(c.rule);
  const amountMinor = bp === undefined ? (basisMinor === 0 ? 0 : c.amountMinor) : percentOf(money(basisMinor, order.currency as CurrencyCode), bp).amount;
  return { amountMinor, basisMinor, rule: c.rule };
}

/** The rate a frozen rule states ("percentage 5.00%", "tier from … , 5.00%"), in basis points; a flat amount states none. */
function basisPointsOf(rule: string): number | undefined {
  const pct = /([0-9]+)\.([0-9]{2})%/.exec(rule);
  return pct ? Number(pct[1]) * 100 + Number(pct[2]) : undefined;
}
