// @ndc/money: exact amounts for the whole gateway. An amount is an integer count of its
// currency's minor units with an ISO 4217 code, never a float; shares and conversions are
// rounded half away from zero in integer arithmetic; the wire form is a decimal string with
// exactly the currency's digits. Which rates apply is the airline's data (@ndc/supply).
export { CURRENCIES, isCurrencyCode, minorUnits, type CurrencyCode } from "./currencies";
export { money, zero, add, subtract, sum, min, mulDivRound, percentOf, type Money } from "./money";
export { toDecimalString, fromDecimalString } from "./decimal-text";
