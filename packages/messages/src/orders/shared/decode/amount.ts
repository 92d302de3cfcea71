import { fromDecimalString, isCurrencyCode, type Money } from "@ndc/money";
import { invalid, type Cursor } from "../../../shopping/shared/cursor";

/**
 * An AmountType element (decimal text with CurCode) as exact minor units. The text is parsed as
 * a decimal string, never through a float, and more fraction digits than the currency has are
 * refused rather than rounded: a seller's 10.005 EUR is a mistake we must not silently "fix".
 */
export function amountOf(a: Cursor): Money {
  const cur = a.el.attrs["CurCode"]?.trim();
  if (!cur) throw invalid(a.path, "An amount needs its currency in the CurCode attribute.");
  if (!isCurrencyCode(cur)) throw invalid(a.path, "CurCode names a currency the airline does not accept.");
  const text = a.el.text.trim();
  if (!/^\+?\d+(\.\d+)?$/.test(text)) throw invalid(a.path, "An amount is a decimal number such as 120.50.");
  let m: Money;
  try {
    m = fromDecimalString(text.replace(/^\+/, ""), cur);
  } catch {
    throw invalid(a.path, `An amount in ${cur} has at most the currency's number of decimals.`);
  }
  if (!Number.isSafeInteger(m.amount)) throw invalid(a.path, "The amount is too large.");
  return m;
}
