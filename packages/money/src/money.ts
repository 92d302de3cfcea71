import type { CurrencyCode } from "./currencies";

/** An exact amount: an integer count of the currency's minor units (cents, pence, whole yen). */
export interface Money {
  readonly amount: number;
  readonly currency: CurrencyCode;
}

export function money(amount: number, currency: CurrencyCode): Money {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`money amount must be an integer of minor units, got ${amount}`);
  return { amount, currency };
}

export function zero(currency: CurrencyCode): Money {
  return money(0, currency);
}

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new RangeError(`cannot mix ${a.currency} and ${b.currency}`);
}

export function add(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return money(a.amount + b.amount, a.currency);
}

export function subtract(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return money(a.amount - b.amount, a.currency);
}

export function sum(items: readonly Money[], currency: CurrencyCode): Money {
  return items.reduce((acc, m) => add(acc, m), zero(currency));
}

export function min(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return a.amount <= b.amount ? a : b;
}

/**
 * round(value * numerator / denominator), ties away from zero, in exact integer arithmetic.
 * BigInt keeps products of large amounts and rates exact where a double would not.
 */
export function mulDivRound(value: number | bigint, numerator: number | bigint, denominator: number | bigint): number {
  const v = BigInt(value);
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  if (d === 0n) throw new RangeError("division by zero");
  let p = v * n;
  let q = d;
  if (q < 0n) {
    p = -p;
    q = -q;
  }
  const negative = p < 0n;
  const abs = negative ? -p : p;
  const rounded = (abs * 2n + q) / (2n * q);
  const result = Number(negative ? -rounded : rounded);
  if (!Number.isSafeInteger(result)) throw new RangeError("amount out of range");
  return result;
}

/** A share of an amount in basis points (1/100 of a percent), rounded half away from zero. */
export function percentOf(m: Money, basisPoints: number): Money {
  return money(mulDivRound(m.amount, basisPoints, 10_000), m.currency);
}
