import { Memo, type FareBrand, type Journey, type PaxCounts, type PaxType, type Supply } from "@ndc/supply";
import type { CurrencyCode } from "@ndc/money";
import type { OfferView, PriceView } from "../model";
import { priceFlights, type JourneyPriceCache, type PricedFlights } from "../common/fares";
import { ids } from "../common/ids";
import { mergeTaxes, priceView, scaleTaxes } from "../common/money";
import type { StoredJourney } from "../offers/payload";
import { baggageOf, itemParts, type ItemParts } from "../views/flight-offer";

/**
 * What a flight offer is made of that follows from supply and the party alone, not from the
 * seller or the moment: the journeys priced in the brand, each item's price and fare, the total,
 * the journey overview, the baggage associations, the journeys as stored. Ids that name the seller's offer (OfferID, OfferItemID, ServiceID) and
 * the expiry are not in it; they are added per request.
 */
export interface OfferParts {
  flights: PricedFlights;
  items: ItemParts[];
  journeys: OfferView["journeys"];
  baggage: OfferView["baggage"];
  /** The journeys as the stored offer remembers them. */
  storedJourneys: StoredJourney[];
  totalPrice: PriceView;
  totalMinor: number;
}

/**
 * Bound of the cross-request memo of offer parts (per supply): a route and day shopped for one
 * party, currency and language is about 50 entries (journey combinations x brands), so this keeps
 * the parts of some 80 recent searches. An entry is about 6 KB on the heap, under 25 MB when full.
 */
export const OFFER_PARTS_MAX = 4_096;

const memos = new WeakMap<Supply, { parts: Memo<OfferParts>; seen: Memo<true> }>();

function memosOf(supply: Supply): { parts: Memo<OfferParts>; seen: Memo<true> } {
  let m = memos.get(supply);
  if (!m) memos.set(supply, (m = { parts: new Memo<OfferParts>(OFFER_PARTS_MAX), seen: new Memo<true>(OFFER_PARTS_MAX) }));
  return m;
}

/** The memo of this supply (its size and bound are what test/shopping/shop-memo.test.ts reads). */
export function offerPartsMemo(supply: Supply): Memo<OfferParts> {
  return memosOf(supply).parts;
}

/**
 * The parts of the offer for these journeys in this brand, for this party, currency and content
 * language: from the second request that asks for them, computed once more and shared (frozen) by
 * every later request that shops the same thing, so the
 * pricing is done once and the encoder can keep the bytes of each price and fare it writes
 * (packages/messages/src/shopping/shared/write). Pure: the supply's fares are a function of its
 * seed and the arguments (docs/supply.md, "Caches"), the cabin name of the language.
 */
export function offerParts(
  supply: Supply,
  combo: readonly Journey[],
  brand: FareBrand,
  counts: PaxCounts,
  byType: ReadonlyMap<PaxType, string[]>,
  partyKey: string,
  currency: CurrencyCode,
  language: string,
  journeyCache: JourneyPriceCache,
): OfferParts {
  const { parts, seen } = memosOf(supply);
  const key = `${combo.map((j) => j.id).join(",")}|${brand.code}|${partyKey}|${currency}|${language}`;
  const kept = parts.find(key);
  if (kept) return kept;
  const built = build();
  // Kept from the second time it is asked for: freezing (and later keeping the bytes of) the parts
  // of a search that never comes again would make a first search of its kind dearer than before.
  if (seen.find(key)) return parts.add(key, built);
  seen.add(key, true);
  return built;

  function build(): OfferParts {
    const f = priceFlights(supply, [...combo], brand, counts, byType, currency, journeyCache);
    const items = itemParts(f, language);
    const totalMinor = items.reduce((s, it) => s + it.price.total.minor, 0);
    const allTaxes = f.items.flatMap((it) => scaleTaxes(it.taxesPerPax, it.count));
    const baseMinor = f.items.reduce((s, it) => s + it.basePerPax.amount * it.count, 0);
    return {
      flights: f,
      items,
      journeys: f.journeys.map((j) => ({ paxJourneyId: j.id, priceClassId: ids.priceClass(f.brand.code) })),
      baggage: baggageOf(f),
      storedJourneys: f.journeys.map((j) => ({
        paxJourneyId: j.id,
        brandCode: f.brand.code,
        cabin: f.brand.cabin,
        flightKeys: j.segments.map((s) => s.key),
        paxSegmentIds: j.segments.map((s) => ids.segment(s.key)),
      })),
      totalPrice: priceView(currency, baseMinor, mergeTaxes(allTaxes)),
      totalMinor,
    };
  }
}
