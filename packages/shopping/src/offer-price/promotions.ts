import { PROMOTION_RULES, askPromotions, type AdjustableItem, type Supply } from "@ndc/supply";
import type { CurrencyCode } from "@ndc/money";
import type { WarningView } from "../model";
import type { Localiser } from "../localisation";
import type { PriceAdjustment } from "../common/money";
import type { ItemAdjustments } from "../views/flight-offer";

/** An item the engine may adjust, with how many units its price covers. */
export interface Adjustable {
  item: AdjustableItem;
  units: number;
}

export interface Adjusted {
  /** Per offer item, summed over its units. */
  byItem: Map<string, ItemAdjustments>;
  /** What to record on the priced offer. */
  applied: { ruleId: string; offerItemId: string; effect: "discount" | "surcharge"; minor: number }[];
  warnings: WarningView[];
}

/**
 * Price adjustments (SHPREV) from the promotions engine: only NDC-channel auto-apply rules
 * (the engine filters on the channel asked for). When the engine cannot be asked (the operator
 * has not switched the criteria on, or it is unreachable, slow or refusing), nothing is adjusted,
 * surcharges included, and a Warning says so (spec 4.5 rules 3 to 5).
 */
export async function adjust(supply: Supply, currency: CurrencyCode, adjustables: readonly Adjustable[], timeoutMs: number, loc: Localiser, criteriaOn: boolean): Promise<Adjusted> {
  const out: Adjusted = { byItem: new Map(), applied: [], warnings: [] };
  if (!criteriaOn) {
    // Switched off by the operator (offer-price/criteria.ts): the engine is not asked at all.
    out.warnings.push({ code: "promotions_unavailable", detail: "The airline has not switched its promotion criteria on." });
    return out;
  }
  const answer = await askPromotions(supply.promotions, { channel: "NDC", currency, items: adjustables.map((a) => a.item) }, timeoutMs);
  if (answer.status === "unavailable") {
    out.warnings.push({ code: "promotions_unavailable", detail: `The engine ${answer.failure === "timeout" ? "did not answer in time" : answer.failure === "refused" ? "refused the request" : "could not be reached"}${answer.transient ? " (transient)" : ""}.` });
    return out;
  }
  const percent = PERCENT;
  const units = new Map(adjustables.map((a) => [a.item.itemId, a.units]));
  for (const a of answer.adjustments) {
    const minor = a.amount.amount * (units.get(a.itemId) ?? 1);
    let entry = out.byItem.get(a.itemId);
    if (!entry) out.byItem.set(a.itemId, (entry = { discounts: [], surcharges: [] }));
    const adj: PriceAdjustment = { ruleId: a.ruleId, name: loc.text(a.nameKey), minor, ...(percent.has(a.ruleId) ? { percent: percent.get(a.ruleId)! } : {}) };
    (a.effect === "discount" ? entry.discounts : entry.surcharges).push(adj);
    out.applied.push({ ruleId: a.ruleId, offerItemId: a.itemId, effect: a.effect, minor });
  }
  if (answer.notApplied.length) {
    const rules = answer.notApplied.map((n) => `${n.ruleId} (fixed in ${n.ruleCurrency}, offer in ${n.offerCurrency})`);
    out.warnings.push({ code: "promotion_not_applied", detail: `Not applied: ${rules.join("; ")}.` });
  }
  return out;
}

/** Percentages of percentage rules, shown beside the discount (DiscountPercent) or surcharge. */
const PERCENT = new Map(PROMOTION_RULES.flatMap((r) => (r.amount.type === "percent" ? [[r.id, r.amount.basisPoints / 100] as const] : [])));

/** Offer-level adjustments: each rule once, summed over the items it touched. */
export function offerAdjustments(byItem: ReadonlyMap<string, ItemAdjustments>): ItemAdjustments {
  const sumBy = (pick: (e: ItemAdjustments) => PriceAdjustment[]) => {
    const m = new Map<string, PriceAdjustment>();
    for (const e of byItem.values()) {
      for (const a of pick(e)) {
        const seen = m.get(a.ruleId);
        m.set(a.ruleId, seen ? { ...seen, minor: seen.minor + a.minor } : { ...a });
      }
    }
    return [...m.values()];
  };
  return { discounts: sumBy((e) => e.discounts), surcharges: sumBy((e) => e.surcharges) };
}
