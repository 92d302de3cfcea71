import { BASE_CURRENCY, minorUnits, type CurrencyCode } from "./currencies";
import { mulDivRound, money, type Money } from "./money";

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
