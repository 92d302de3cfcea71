/**
 * The currencies the gateway handles, with their ISO 4217 minor-unit exponent: how many decimal
 * digits an amount has on the wire. JPY has none: a yen amount is a whole number of yen.
 * Adding a currency here makes the type checker ask for its rate in the airline's rate table
 * (@ndc/supply, exchange/rates.ts), so no currency is accepted that cannot be priced.
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

export function isCurrencyCode(code: string): code is CurrencyCode {
  return Object.hasOwn(CURRENCIES, code);
}

export function minorUnits(currency: CurrencyCode): number {
  return CURRENCIES[currency];
}
