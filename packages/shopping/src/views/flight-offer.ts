import { Memo } from "@ndc/supply";
import type { FareComponentView, OfferItemView, OfferServiceView, OfferView, PriceView } from "../model";
import type { PricedFlights } from "../common/fares";
import { ids } from "../common/ids";
import { priceView, scaleTaxes, type PriceAdjustment } from "../common/money";
import { cabinView, type DataListsBuilder } from "./data-lists";
import { conditionsWithFees } from "./fare-fees";

export interface ItemAdjustments {
  discounts: PriceAdjustment[];
  surcharges: PriceAdjustment[];
}

/**
 * The flight part of an offer: one item per passenger type (priced for all its passengers), the
 * brand's conditions on each item with the fees a change or refund made `now` would cost, and baggage stated only when the brand holds an allowance
 * (spec 2.7). Adjustments (OfferPrice only) are keyed by offer item id and already summed over
 * the item's passengers.
 */
export function flightItems(
  offerId: string,
  ownerCode: string,
  f: PricedFlights,
  lists: DataListsBuilder,
  now: number,
  adjustments: ReadonlyMap<string, ItemAdjustments> = new Map(),
  priceGuaranteeUntil?: string,
  parts: readonly ItemParts[] = itemParts(f, lists.language),
): OfferItemView[] {
  // The brand enters DataLists (and its texts the localiser) here, in first-use order, also when
  // the parts were kept from an earlier request.
  lists.brand(f.brand);
  lists.cabin(f.brand);
  lists.segmentCabins(f.journeys, f.brand);
  // The fees depend on the moment (time to departure), so they join the kept parts here.
  const conditions = conditionsWithFees(f, now);
  return f.items.map((it, k) => {
    const offerItemId = ids.offerItem(offerId, it.ptc);
    const adjusted = adjustments.get(offerItemId);
    return {
      offerItemId,
      ownerCode,
      price: adjusted ? priceView(f.currency, it.basePerPax.amount * it.count, scaleTaxes(it.taxesPerPax, it.count), adjusted) : parts[k]!.price,
      fare: parts[k]!.fare,
      conditions,
      services: parts[k]!.services.map((s) => ({ serviceId: ids.flightService(offerItemId, s.paxId, s.journeyIndex), paxIds: s.paxIds, association: s.association })),
      ...(priceGuaranteeUntil ? { priceGuaranteeUntil } : {}),
    };
  });
}

/** The price (before adjustments) and fare of an item: they follow from the flights and the party alone. */
export interface ItemParts {
  price: PriceView;
  fare: NonNullable<OfferItemView["fare"]>;
  conditions: NonNullable<OfferItemView["conditions"]>;
  /** Per passenger and journey, what a flight service says besides its id. */
  services: { paxId: string; journeyIndex: number; paxIds: string[]; association: OfferServiceView["association"] }[];
}

type ServicePart = ItemParts["services"][number];

/**
 * What many offers have in common, one frozen object each: a journey's fare component in a
 * brand, a passenger's flight service on a journey. Shared, they are frozen once and their bytes
 * written once (the response writer keeps the bytes of frozen values). Bounded; a dropped entry
 * is made again, equal.
 */
const sharedParts = { components: new Memo<FareComponentView>(4_096), services: new Memo<ServicePart>(4_096) };

/** Pure (no DataLists or localiser bookkeeping), so the parts can be kept across requests. */
export function itemParts(f: PricedFlights, language: string): ItemParts[] {
  const priceClassId = ids.priceClass(f.brand.code);
  const cabin = cabinView(f.brand, language);
  const components = f.journeys.map((j) =>
    sharedParts.components.get(`${j.id}|${priceClassId}|${cabin.code}|${cabin.name}`, () => ({ paxSegmentIds: j.segments.map((s) => ids.segment(s.key)), priceClassId, cabin })),
  );
  return f.items.map((it) => ({
    price: priceView(f.currency, it.basePerPax.amount * it.count, scaleTaxes(it.taxesPerPax, it.count)),
    fare: { paxIds: it.paxIds, components },
    // The supply's conditions of the brand, frozen and shared by every offer in it.
    conditions: f.conditions.conditions,
    services: it.paxIds.flatMap((paxId) =>
      f.journeys.map((j, i) =>
        sharedParts.services.get(`${paxId}|${i}|${j.id}`, () => ({ paxId, journeyIndex: i, paxIds: [paxId], association: { kind: "journeys" as const, paxJourneyIds: [j.id] } })),
      ),
    ),
  }));
}

/** Baggage associations per passenger type; none at all for a brand without an allowance. */
export function baggage(f: PricedFlights, lists: DataListsBuilder): OfferView["baggage"] {
  listAllowances(f, lists);
  return baggageOf(f);
}

/** The associations alone (pure, so they can be kept with an offer's parts); ids as DataLists names them. */
export function baggageOf(f: PricedFlights): OfferView["baggage"] {
  if (!f.brand.allowance) return [];
  const out: OfferView["baggage"] = [];
  for (const it of f.items) {
    const granted = f.brand.allowance.filter((a) => a.paxTypes.includes(it.ptc));
    if (granted.length === 0) continue;
    out.push({ baggageAllowanceIds: granted.map((a) => ids.allowance(a)), paxIds: it.paxIds, paxJourneyIds: f.journeys.map((j) => j.id) });
  }
  return out;
}

/** Enters the allowances the offer refers to in DataLists, in the order `baggage` refers to them. */
export function listAllowances(f: PricedFlights, lists: DataListsBuilder): void {
  if (!f.brand.allowance) return;
  for (const it of f.items) for (const a of f.brand.allowance) if (a.paxTypes.includes(it.ptc)) lists.allowance(a);
}
