import type { CurrencyCode, Money } from "@ndc/money";

/** The airline's own programme (its designator); no other programme pays (spec 4.4 rule 5). */
export const OWN_PROGRAMME = "XB";

/**
 * Redemption rates: `points` buy `minor` minor units of the currency. EUR 100 points = 1.00 EUR;
 * JPY 70 points = 100 JPY. Kept as integer pairs so every conversion is exact.
 */
export const REDEMPTION_RATES: Readonly<Record<CurrencyCode, { points: number; minor: number }>> = {
  EUR: { points: 100, minor: 100 },
  USD: { points: 90, minor: 100 },
  GBP: { points: 115, minor: 100 },
  CHF: { points: 95, minor: 100 },
  JPY: { points: 70, minor: 100 },
  SGD: { points: 70, minor: 100 },
  AED: { points: 27, minor: 100 },
  BRL: { points: 18, minor: 100 },
};

/**
 * Points needed to pay `amount`, rounded UP to a whole point: the airline never gives value for a
 * fraction of a point. Exact: ceil(amount * points / minor) in BigInt.
 */
export function pointsNeeded(amount: Money): number {
  const r = REDEMPTION_RATES[amount.currency];
  const num = BigInt(amount.amount) * BigInt(r.points);
  const den = BigInt(r.minor);
  return Number((num + den - 1n) / den);
}

/**
 * What `points` are worth, rounded DOWN to a minor unit (the mirror rule). Together:
 * pointsValue(pointsNeeded(a)) >= a, and pointsNeeded(pointsValue(p)) <= p.
 */
export function pointsValue(points: number, currency: CurrencyCode): Money {
  const r = REDEMPTION_RATES[currency];
  return { amount: Number((BigInt(points) * BigInt(r.minor)) / BigInt(r.points)), currency };
}
