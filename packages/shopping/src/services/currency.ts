import { GatewayError } from "@ndc/errors";
import { isCurrencyCode, minorUnits, type CurrencyCode, type Money as SupplyMoney } from "@ndc/money";
import { money, type Money } from "../model";

/** The requested currency (ResponseParameters) when given, else the offer's own. */
export function responseCurrency(requested: string | undefined, fallback: string): CurrencyCode {
  const code = (requested ?? fallback).toUpperCase();
  if (!isCurrencyCode(code)) {
    throw new GatewayError("currency_not_supported", { detail: `Currency ${code.slice(0, 3)}.`, element: "Request/ResponseParameters/CurParameter/CurCode" });
  }
  return code;
}

/** Supply money (integer minor units) as the view's money, with the currency's decimals. */
export function viewMoney(m: SupplyMoney): Money {
  return money(m.amount, m.currency, minorUnits(m.currency));
}
