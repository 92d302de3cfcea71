import type { CurrencyCode, Money } from "@ndc/money";
import type { CabinCode } from "../schedule/flights";

/**
 * Promotion rules (SHPREV price adjustments, SHPDSC discounts). A fixed amount and a cap each
 * carry their own currency: they apply only to offers priced in it and are never converted
 * (spec 4.5 rule 5). A percentage without a cap applies in any currency.
 */
export type Channel = "NDC" | "WEB" | "CALL_CENTRE";
export type AdjustableKind = "flight" | "service" | "bundle" | "seat" | "ride" | "partner";

export type RuleAmount =
  | { type: "percent"; basisPoints: number; cap?: Money }
  | { type: "fixed"; amount: Money };

export interface PromotionRule {
  id: string;
  nameKey: string;
  channel: Channel;
  /** Applied without the seller asking (only these are used on NDC, spec 4.5 rule 3). */
  autoApply: boolean;
  effect: "discount" | "surcharge";
  amount: RuleAmount;
  /** What it targets; every listed condition must hold. */
  appliesTo: {
    kinds: readonly AdjustableKind[];
    brands?: readonly string[];
    cabins?: readonly CabinCode[];
    origins?: readonly string[];
  };
}

const rule = (r: Omit<PromotionRule, "nameKey">): PromotionRule => ({ ...r, nameKey: `promotion.${r.id}.name` });
const m = (amount: number, currency: CurrencyCode): Money => ({ amount, currency });

export const PROMOTION_RULES: readonly PromotionRule[] = [
  rule({ id: "PR-NDC-FLEX10", channel: "NDC", autoApply: true, effect: "discount", amount: { type: "percent", basisPoints: 1_000, cap: m(5_000, "EUR") }, appliesTo: { kinds: ["flight"], brands: ["FLEX"] } }),
  rule({ id: "PR-NDC-EXTRAS5", channel: "NDC", autoApply: true, effect: "discount", amount: { type: "percent", basisPoints: 500 }, appliesTo: { kinds: ["service", "bundle"] } }),
  rule({ id: "PR-NDC-GBP7", channel: "NDC", autoApply: true, effect: "discount", amount: { type: "fixed", amount: m(700, "GBP") }, appliesTo: { kinds: ["flight"], origins: ["LHR"] } }),
  rule({ id: "PR-NDC-FUEL", channel: "NDC", autoApply: true, effect: "surcharge", amount: { type: "fixed", amount: m(300, "EUR") }, appliesTo: { kinds: ["flight"] } }),
  rule({ id: "PR-NDC-BIZ2", channel: "NDC", autoApply: true, effect: "surcharge", amount: { type: "percent", basisPoints: 200, cap: m(2_000, "USD") }, appliesTo: { kinds: ["flight"], cabins: ["BUSINESS"] } }),
  rule({ id: "PR-NDC-JPY", channel: "NDC", autoApply: true, effect: "discount", amount: { type: "fixed", amount: m(1_000, "JPY") }, appliesTo: { kinds: ["flight"] } }),
  rule({ id: "PR-WEB-15", channel: "WEB", autoApply: true, effect: "discount", amount: { type: "percent", basisPoints: 1_500 }, appliesTo: { kinds: ["flight", "service"] } }),
  rule({ id: "PR-NDC-CODE", channel: "NDC", autoApply: false, effect: "discount", amount: { type: "percent", basisPoints: 2_000 }, appliesTo: { kinds: ["flight"] } }),
];
