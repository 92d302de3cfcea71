import type { CurrencyCode } from "@ndc/money";
import { min, money, percentOf, type Money } from "@ndc/money";
import type { CabinCode } from "../schedule/flights";
import type { AdjustableKind, Channel, PromotionRule } from "./rules";

/**
 * The pure core of the promotions engine: which rules apply to which priced items, and by how
 * much. Adjustments are per item (per passenger fare, per extra); an offer's adjustment is the
 * sum of its items', so Discount and Surcharge can be shown on both levels.
 */
export interface AdjustableItem {
  itemId: string;
  kind: AdjustableKind;
  /** The amount a percentage is taken of (a fare before taxes, an extra's price), per unit. */
  amount: Money;
  brand?: string;
  cabin?: CabinCode;
  origin?: string;
}

export interface PromotionRequest {
  channel: Channel;
  /** Currency the offer is priced in; every item's amount must be in it. */
  currency: CurrencyCode;
  items: readonly AdjustableItem[];
}

export interface Adjustment {
  ruleId: string;
  nameKey: string;
  itemId: string;
  effect: "discount" | "surcharge";
  /** Positive; a discount lowers the price by it, a surcharge raises it. */
  amount: Money;
}

export interface RuleNotApplied {
  ruleId: string;
  nameKey: string;
  reason: "currency_mismatch";
  /** The currency the rule's fixed amount or cap is in. */
  ruleCurrency: CurrencyCode;
  offerCurrency: CurrencyCode;
}

export interface PromotionResult {
  adjustments: Adjustment[];
  notApplied: RuleNotApplied[];
}

function targets(rule: PromotionRule, item: AdjustableItem): boolean {
  const t = rule.appliesTo;
  if (!t.kinds.includes(item.kind)) return false;
  if (t.brands && (item.brand === undefined || !t.brands.includes(item.brand))) return false;
  if (t.cabins && (item.cabin === undefined || !t.cabins.includes(item.cabin))) return false;
  if (t.origins && (item.origin === undefined || !t.origins.includes(item.origin))) return false;
  return true;
}

/** The currency a rule is tied to, if any (its fixed amount's or its cap's). */
function ruleCurrency(rule: PromotionRule): CurrencyCode | undefined {
  if (rule.amount.type === "fixed") return rule.amount.amount.currency;
  return rule.amount.cap?.currency;
}

function amountFor(rule: PromotionRule, item: AdjustableItem): Money {
  const a = rule.amount;
  if (a.type === "fixed") return a.amount;
  const share = percentOf(item.amount, a.basisPoints);
  return a.cap ? min(share, a.cap) : share;
}

export function evaluatePromotions(rules: readonly PromotionRule[], request: PromotionRequest): PromotionResult {
  for (const item of request.items) {
    if (item.amount.currency !== request.currency) throw new RangeError(`item ${item.itemId} is in ${item.amount.currency}, offer in ${request.currency}`);
  }
  const adjustments: Adjustment[] = [];
  const notApplied: RuleNotApplied[] = [];
  // Only auto-apply rules of the asking channel count (spec 4.5 rule 3); others are not "not applied", just not for it.
  const usable = rules.filter((r) => r.channel === request.channel && r.autoApply);
  for (const rule of usable) {
    const hits = request.items.filter((i) => targets(rule, i));
    if (hits.length === 0) continue;
    const tied = ruleCurrency(rule);
    if (tied !== undefined && tied !== request.currency) {
      notApplied.push({ ruleId: rule.id, nameKey: rule.nameKey, reason: "currency_mismatch", ruleCurrency: tied, offerCurrency: request.currency });
      continue;
    }
    for (const item of hits) {
      let amount = amountFor(rule, item);
      // A discount never makes an item negative.
      if (rule.effect === "discount") amount = min(amount, item.amount);
      if (amount.amount <= 0) continue;
      adjustments.push({ ruleId: rule.id, nameKey: rule.nameKey, itemId: item.itemId, effect: rule.effect, amount: money(amount.amount, request.currency) });
    }
  }
  return { adjustments, notApplied };
}

/** Net effect on one item: surcharges minus discounts (negative lowers the price). */
export function netAdjustment(result: PromotionResult, itemId: string, currency: CurrencyCode): Money {
  let net = 0;
  for (const a of result.adjustments) if (a.itemId === itemId) net += a.effect === "surcharge" ? a.amount.amount : -a.amount.amount;
  return money(net, currency);
}
