import type { TaxLine } from "@ndc/supply";
import { minorUnits, type CurrencyCode, type Money } from "@ndc/money";
import { money as viewMoney, type AdjustmentView, type Money as ViewMoney, type PriceView, type TaxView } from "../model";

/** Supply money (integer minor units) to the view's money (minor units with the currency's decimals). */
export function toView(m: Money): ViewMoney {
  return viewMoney(m.amount, m.currency, minorUnits(m.currency));
}

export function minorToView(minor: number, currency: CurrencyCode): ViewMoney {
  return viewMoney(minor, currency, minorUnits(currency));
}

/**
 * Tax lines with the same code merged (one line per code on a price), in first-seen order. A price
 * carries a handful of codes, so a scan of the lines merged so far beats a Map (this runs for every
 * item of every offer).
 */
export function mergeTaxes(lines: readonly TaxLine[]): TaxLine[] {
  const out: TaxLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!;
    let k = 0;
    while (k < out.length && out[k]!.code !== t.code) k++;
    if (k === out.length) out.push(t);
    else out[k] = { code: t.code, amount: { amount: out[k]!.amount.amount + t.amount.amount, currency: t.amount.currency } };
  }
  return out;
}

export function scaleTaxes(lines: readonly TaxLine[], n: number): TaxLine[] {
  return lines.map((t) => ({ code: t.code, amount: { amount: t.amount.amount * n, currency: t.amount.currency } }));
}

/** An adjustment to show: rule, translated name, amount (positive) in minor units. */
export interface PriceAdjustment {
  ruleId: string;
  name: string;
  minor: number;
  percent?: number;
}

/**
 * A PriceView from its parts. The total is computed here, once, as base + taxes + surcharges -
 * discounts, so every price the gateway shows adds up to the lines it shows.
 */
export function priceView(
  currency: CurrencyCode,
  baseMinor: number,
  taxes: readonly TaxLine[],
  adjustments: { discounts?: readonly PriceAdjustment[]; surcharges?: readonly PriceAdjustment[] } = {},
): PriceView {
  const taxViews: TaxView[] = taxes.map((t) => ({ code: t.code, amount: toView(t.amount) }));
  const adj = (a: PriceAdjustment): AdjustmentView => ({ ruleId: a.ruleId, name: a.name, amount: minorToView(a.minor, currency), ...(a.percent !== undefined ? { percent: a.percent } : {}) });
  const discounts = adjustments.discounts ?? [];
  const surcharges = adjustments.surcharges ?? [];
  let total = baseMinor;
  for (const t of taxes) total += t.amount.amount;
  for (const s of surcharges) total += s.minor;
  for (const d of discounts) total -= d.minor;
  return {
    base: minorToView(baseMinor, currency),
    taxes: taxViews,
    ...(discounts.length ? { discounts: discounts.map(adj) } : {}),
    ...(surcharges.length ? { surcharges: surcharges.map(adj) } : {}),
    total: minorToView(total, currency),
  };
}
