import { GatewayError } from "@ndc/errors";
import { add, convert, money, percentOf, subtract, type CurrencyCode, type Money } from "../money";

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

/**
 * Commission on a sale, on the order total including surcharges. A tiered agreement in another
 * currency picks its tier on the total converted at the airline's rate table, then applies that
 * rate to the total itself; a flat agreement in another currency is converted the same way.
 */
export function saleCommission(agreement: CommissionAgreement, orderTotal: Money): Commission {
  switch (agreement.kind) {
    case "percentage":
      return { amount: percentOf(orderTotal, agreement.basisPoints), basis: orderTotal, rule: `percentage ${pct(agreement.basisPoints)}` };
    case "tiered": {
      const probe = agreement.currency === orderTotal.currency ? orderTotal : convert(orderTotal, agreement.currency);
      const tier = tierFor(agreement, probe);
      return { amount: percentOf(orderTotal, tier.basisPoints), basis: orderTotal, rule: `tier from ${tier.from} ${agreement.currency} minor units, ${pct(tier.basisPoints)}` };
    }
    case "flat": {
      const amount = agreement.amount.currency === orderTotal.currency ? agreement.amount : convert(agreement.amount, orderTotal.currency);
      return { amount: money(amount.amount, amount.currency), basis: orderTotal, rule: "flat amount" };
    }
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
