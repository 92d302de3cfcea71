import type { ConditionsOutcome, FareBrand, Journey, PaxCounts, PaxType, PricedJourney, Supply, TaxLine } from "@ndc/supply";
import type { CurrencyCode, Money } from "@ndc/money";
import { mergeTaxes } from "./money";

/** The fare of one passenger type over every journey of an offer, per passenger. */
export interface FareItem {
  ptc: PaxType;
  paxIds: string[];
  count: number;
  basePerPax: Money;
  taxesPerPax: TaxLine[];
}

/** A set of journeys priced in one brand for a party: what a flight offer is made of. */
export interface PricedFlights {
  brand: FareBrand;
  journeys: Journey[];
  currency: CurrencyCode;
  items: FareItem[];
  conditions: ConditionsOutcome;
}

/** Caches priceJourney per (journey, brand) for one request: a journey recurs in many combinations. */
export type JourneyPriceCache = Map<string, PricedJourney>;

export function priceFlights(
  supply: Supply,
  journeys: Journey[],
  brand: FareBrand,
  counts: PaxCounts,
  paxByType: ReadonlyMap<PaxType, string[]>,
  currency: CurrencyCode,
  cache: JourneyPriceCache = new Map(),
): PricedFlights {
  const priced = journeys.map((j) => {
    const key = `${j.id}|${brand.code}`;
    let p = cache.get(key);
    if (!p) cache.set(key, (p = supply.priceJourney(j, brand.code, counts, currency)));
    return p;
  });
  const items: FareItem[] = [];
  for (const [ptc, paxIds] of paxByType) {
    let base = 0;
    const taxes: TaxLine[] = [];
    for (const p of priced) {
      const pax = p.pax.find((x) => x.paxType === ptc)!;
      base += pax.baseFare.amount;
      taxes.push(...pax.taxes);
    }
    items.push({ ptc, paxIds, count: paxIds.length, basePerPax: { amount: base, currency }, taxesPerPax: mergeTaxes(taxes) });
  }
  // One brand over every journey: the conditions (and any supplier fallback) are the brand's.
  return { brand, journeys, currency, items, conditions: priced[0]!.conditions };
}

/** ISO 8601 duration of whole minutes, e.g. PT2H15M. */
export function isoDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `PT${h ? `${h}H` : ""}${m || !h ? `${m}M` : ""}`;
}
