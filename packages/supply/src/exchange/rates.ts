import { minorUnits, mulDivRound, money, type CurrencyCode, type Money } from "@ndc/money";

// The rate table and the base currency stay in the simulated airline, not in @ndc/money: which
// currency fares are filed in and what a euro is worth in yen are the airline's commercial data
// (a real airline loads its banker's rates daily), while @ndc/money holds only rules true of any
// amount (exponents, rounding, decimal text). convert() lives here because it reads the table;
// the exact arithmetic it uses (mulDivRound) is @ndc/money's.

/** Fares, taxes and catalogue prices are filed in this currency, then converted on request. */
export const BASE_CURRENCY: CurrencyCode = "EUR";

/**
 * The sandbox's rate table: units of each currency for one unit of the base currency (EUR).
 * Rates are decimal strings, read exactly (never through a float). They are fixed so that prices
 * are repeatable; a real airline would load its banker's rates daily.
 */
export const RATE_TABLE: Readonly<Record<CurrencyCode, string>> = {
  EUR: "1",
  USD: "1.0850",
  GBP: "0.8420",
  CHF: "0.9410",
  JPY: "162.35",
  SGD: "1.4560",
  AED: "3.9850",
  BRL: "5.9120",
};

/** A rate as an exact fraction numerator / denominator. */
function rateFraction(currency: CurrencyCode): { num: bigint; den: bigint } {
  const [whole, frac = ""] = RATE_TABLE[currency].split(".");
  return { num: BigInt(`${whole}${frac}`), den: 10n ** BigInt(frac.length) };
}

/**
 * Converts a base-currency amount into the requested currency.
 * Rounding rule: the exact product is rounded half away from zero to the target's minor unit
 * (whole yen for JPY). Callers convert each component (fare, each tax, each extra) separately and
 * add the converted parts, so a converted total always equals the sum of its converted items.
 */
export function convert(amount: Money, to: CurrencyCode): Money {
  if (amount.currency === to) return amount;
  if (amount.currency !== BASE_CURRENCY) {
    throw new RangeError(`rates are quoted from ${BASE_CURRENCY}; cannot convert from ${amount.currency}`);
  }
  const { num, den } = rateFraction(to);
  const scaleUp = 10n ** BigInt(minorUnits(to));
  const scaleDown = 10n ** BigInt(minorUnits(amount.currency));
  return money(mulDivRound(BigInt(amount.amount), num * scaleUp, den * scaleDown), to);
}
