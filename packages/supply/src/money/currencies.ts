/**
 * Currencies the simulated airline prices in, with their ISO 4217 minor-unit exponent.
 * JPY has none: a yen amount is a whole number of yen.
 */
export const CURRENCIES = {
  EUR: 2,
  USD: 2,
  GBP: 2,
  CHF: 2,
  JPY: 0,
  SGD: 2,
  AED: 2,
  BRL: 2,
} as const;

export type CurrencyCode = keyof typeof CURRENCIES;

/** Fares, taxes and catalogue prices are filed in this currency, then converted on request. */
export const BASE_CURRENCY: CurrencyCode = "EUR";

export function isCurrencyCode(code: string): code is CurrencyCode {
  return Object.hasOwn(CURRENCIES, code);
}

export function minorUnits(currency: CurrencyCode): number {
  return CURRENCIES[currency];
}
