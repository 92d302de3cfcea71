import { minorUnits, type CurrencyCode } from "./currencies";
import { money, type Money } from "./money";

/** The wire form: a decimal string with exactly the currency's minor digits ("12.30", "1230" for JPY). */
export function toDecimalString(m: Money): string {
  const digits = minorUnits(m.currency);
  const negative = m.amount < 0;
  const abs = String(Math.abs(m.amount));
  if (digits === 0) return `${negative ? "-" : ""}${abs}`;
  const padded = abs.padStart(digits + 1, "0");
  return `${negative ? "-" : ""}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** Parses a decimal string exactly; refuses more fraction digits than the currency has. */
export function fromDecimalString(text: string, currency: CurrencyCode): Money {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new RangeError(`not a decimal amount: ${text}`);
  const digits = minorUnits(currency);
  const frac = m[3] ?? "";
  if (frac.length > digits) throw new RangeError(`${currency} has ${digits} decimals, got ${text}`);
  const amount = Number(`${m[2]}${frac.padEnd(digits, "0")}`);
  return money(m[1] === "-" ? -amount : amount, currency);
}
