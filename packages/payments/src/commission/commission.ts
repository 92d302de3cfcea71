import { GatewayError } from "@ndc/errors";
import { add, money, percentOf, subtract, type CurrencyCode, type Money } from "@ndc/money";
import { BASE_CURRENCY, convert } from "@ndc/supply";

/**
 * A seller's commission agreement. Rates are basis points (1/100 of a percent) so every share is
 * exact. A tier's rate applies to the whole amount once the amount reaches its `from` (a step,
 * not a marginal scale); thresholds are minor units of the agreement's own currency.
 */
export type CommissionAgreement =
  | { kind: "percentage"; basisPoints: number }
  | { kind: "tiered"; currency: CurrencyCode; tiers: readonly { from: number; basisPoints: number }[] }
  | { kind: "flat"; amount: Money };

export interface Commission {
  amount: Money;
  /** What it was computed on (PAYCOM discloses both). */
  basis: Money;
  rule: string;
}

/** Spec 4.4 rule 7: the order total the commission is computed on includes every surcharge. */
export function commissionBase(base: Money, adjustments: { surcharges?: readonly Money[]; discounts?: readonly Money[] } = {}): Money {
  let total = base;
  for (const s of adjustments.surcharges ?? []) total = add(total, s);
  for (const d of adjustments.discounts ?? []) total = subtract(total, d);
  return total;
}

function tierFor(agreement: Extract<CommissionAgreement, { kind: "tiered" }>, inAgreementCurrency: Money): { from: number; basisPoints: number } {
  const sorted = [...agreement.tiers].sort((a, b) => a.from - b.from);
  let chosen = { from: 0, basisPoints: 0 };
  for (const t of sorted) if (inAgreementCurrency.amount >= t.from) chosen = t;
  return chosen;
}

const pct = (bp: number) => `${(bp / 100).toFixed(2)}%`;

// The rate table quotes from EUR only, so an amount of the agreement is brought into the order's
// currency (never the other way round); an agreement in another non-base currency has no rate.
function inOrderCurrency(amount: Money, orderCurrency: CurrencyCode): Money {
  if (amount.currency === orderCurrency) return amount;
  if (amount.currency !== BASE_CURRENCY) {
    throw new GatewayError("commission_rule_not_applicable", { detail: `No rate from the agreement's ${amount.currency} to ${orderCurrency}.` });
  }
  return convert(amount, orderCurrency);
}

/**
 * Commission on a sale, on the order total including surcharges. A tiered agreement in EUR (the
 * rate table's base) for a sale in another currency compares the total with its thresholds
 * converted into the sale's currency; a flat amount is converted the same way.
 */
export function saleCommission(agreement: CommissionAgreement, orderTotal: Money): Commission {
  switch (agreement.kind) {
    case "percentage":
      return { amount: percentOf(orderTotal, agreement.basisPoints), basis: orderTotal, rule: `percentage ${pct(agreement.basisPoints)}` };
    case "tiered": {
      const local = {
        ...agreement,
        tiers: agreement.tiers.map((t) => ({ ...t, from: inOrderCurrency(money(t.from, agreement.currency), orderTotal.currency).amount })),
      };
      const tier = tierFor(local, orderTotal);
      return { amount: percentOf(orderTotal, tier.basisPoints), basis: orderTotal, rule: `tier from ${tier.from} ${orderTotal.currency} minor units, ${pct(tier.basisPoints)}` };
    }
    case "flat":
      return { amount: inOrderCurrency(agreement.amount, orderTotal.currency), basis: orderTotal, rule: "flat amount" };
  }
}

/**
 * Commission on a post-sale charge (spec 4.7 servicing rule 6): the percentage or tier on the
 * charge's own amount. A flat agreement gives no rule for a charge, and a tiered agreement in
 * another currency cannot place it in a tier: both refuse the change.
 */
export function chargeCommission(agreement: CommissionAgreement, charge: Money): Commission {
  if (agreement.kind === "flat") throw new GatewayError("commission_rule_not_applicable", { detail: "A flat-amount agreement has no rule for a post-sale charge." });
  if (agreement.kind === "tiered" && agreement.currency !== charge.currency) {
    throw new GatewayError("commission_rule_not_applicable", { detail: `The tiered agreement is in ${agreement.currency}, the charge in ${charge.currency}.` });
  }
  return saleCommission(agreement, charge);
}
