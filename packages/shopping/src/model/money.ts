/**
 * An exact amount: integer minor units with their currency and the currency's decimals
 * (EUR 2, JPY 0, KWD 3). Never a binary float; rendered as a decimal string.
 */
export interface Money {
  /** Integer minor units (1234 = 12.34 when decimals is 2). May be negative only where stated. */
  minor: number;
  currency: string;
  decimals: number;
}

export function money(minor: number, currency: string, decimals = 2): Money {
  return { minor, currency, decimals };
}

/** 1234 EUR/2 -> "12.34"; -5 EUR/2 -> "-0.05"; 700 JPY/0 -> "700". */
export function formatMoney(m: Money): string {
  if (!Number.isSafeInteger(m.minor)) throw new RangeError(`Amount ${m.minor} ${m.currency} is not an integer number of minor units.`);
  if (!Number.isInteger(m.decimals) || m.decimals < 0 || m.decimals > 6) throw new RangeError(`Currency ${m.currency} has ${m.decimals} decimals.`);
  const sign = m.minor < 0 ? "-" : "";
  const digits = String(Math.abs(m.minor));
  if (m.decimals === 0) return sign + digits;
  const padded = digits.padStart(m.decimals + 1, "0");
  return `${sign}${padded.slice(0, -m.decimals)}.${padded.slice(-m.decimals)}`;
}
