import { Memo, type CurrencyCode, type FareBrand, type Journey, type PaxCounts, type PaxType, type Supply } from "@ndc/supply";
import type { OfferView, PriceView } from "@ndc/messages";
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

const memos = new WeakMap<Supply, Memo<OfferParts>>();

/** The memo of this supply (its size and bound are what test/shopping/shop-memo.test.ts reads). */
export function offerPartsMemo(supply: Supply): Memo<OfferParts> {
  let memo = memos.get(supply);
  if (!memo) memos.set(supply, (memo = new Memo<OfferParts>(OFFER_PARTS_MAX)));
  return memo;
}

/**
 * The parts of the offer for these journeys in this brand, for this party, currency and content
 * language: computed once and shared (frozen) by every request that shops the same thing, so the
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
  const memo = offerPartsMemo(supply);
  const key = `${combo.map((j) => j.id).join(",")}|${brand.code}|${partyKey}|${currency}|${language}`;
  return memo.get(key, () => {
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
  });
}
