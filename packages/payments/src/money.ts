// One Money for the whole gateway: integer minor units plus an ISO 4217 code, never a float.
export {
  money,
  zero,
  add,
  subtract,
  sum,
  mulDivRound,
  percentOf,
  toDecimalString,
  fromDecimalString,
  convert,
  minorUnits,
  isCurrencyCode,
  type Money,
  type CurrencyCode,
} from "@ndc/supply";
