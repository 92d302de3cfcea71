import type { OfferItemView, OfferView } from "@ndc/messages";
import type { PricedFlights } from "../common/fares";
import { ids } from "../common/ids";
import { priceView, scaleTaxes, type PriceAdjustment } from "../common/money";
import type { DataListsBuilder } from "./data-lists";

export interface ItemAdjustments {
  discounts: PriceAdjustment[];
  surcharges: PriceAdjustment[];
}

/**
 * The flight part of an offer: one item per passenger type (priced for all its passengers), the
 * brand's conditions on each item, and baggage stated only when the brand holds an allowance
 * (spec 2.7). Adjustments (OfferPrice only) are keyed by offer item id and already summed over
 * the item's passengers.
 */
export function flightItems(
  offerId: string,
  ownerCode: string,
  f: PricedFlights,
  lists: DataListsBuilder,
  adjustments: ReadonlyMap<string, ItemAdjustments> = new Map(),
  priceGuaranteeUntil?: string,
): OfferItemView[] {
  const priceClassId = lists.brand(f.brand);
  const cabin = lists.cabin(f.brand);
  return f.items.map((it) => {
    const offerItemId = ids.offerItem(offerId, it.ptc);
    return {
      offerItemId,
      ownerCode,
      price: priceView(f.currency, it.basePerPax.amount * it.count, scaleTaxes(it.taxesPerPax, it.count), adjustments.get(offerItemId)),
      fare: {
        paxIds: it.paxIds,
        components: f.journeys.map((j) => ({ paxSegmentIds: j.segments.map((s) => ids.segment(s.key)), priceClassId, cabin })),
      },
      conditions: { ...f.conditions.conditions },
      services: it.paxIds.flatMap((paxId) =>
        f.journeys.map((j, i) => ({ serviceId: ids.flightService(offerItemId, paxId, i), paxIds: [paxId], association: { kind: "journeys" as const, paxJourneyIds: [j.id] } })),
      ),
      ...(priceGuaranteeUntil ? { priceGuaranteeUntil } : {}),
    };
  });
}

/** Baggage associations per passenger type; none at all for a brand without an allowance. */
export function baggage(f: PricedFlights, lists: DataListsBuilder): OfferView["baggage"] {
  if (!f.brand.allowance) return [];
  const out: OfferView["baggage"] = [];
  for (const it of f.items) {
    const granted = f.brand.allowance.filter((a) => a.paxTypes.includes(it.ptc));
    if (granted.length === 0) continue;
    out.push({ baggageAllowanceIds: granted.map((a) => lists.allowance(a)), paxIds: it.paxIds, paxJourneyIds: f.journeys.map((j) => j.id) });
  }
  return out;
}
