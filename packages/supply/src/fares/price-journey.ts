import { stableId } from "../core/ids";
import type { CurrencyCode } from "@ndc/money";
import { add, money, sum, type Money } from "@ndc/money";
import { convert } from "../exchange/rates";
import type { Journey } from "../schedule/connections";
import { conditionsFor, type ConditionsOutcome } from "./brand-policy";
import { fareBrand, type BaggageAllowance, type FareBrand } from "./brands";
import { baseFare } from "./fares";
import { PAX_TYPES, type PaxType } from "./pax";
import { journeyTaxes, type TaxLine } from "./taxes";

export type PaxCounts = Partial<Record<PaxType, number>>;

export interface PricedPax {
  /** Stable id of this passenger type's fare item (seed + journey + brand + passengers + currency). */
  itemId: string;
  paxType: PaxType;
  count: number;
  /** Per passenger. */
  baseFare: Money;
  taxes: TaxLine[];
  taxTotal: Money;
  /** Per passenger: base fare plus taxes. */
  total: Money;
  /** undefined when the brand's catalogue holds no allowance: the offer states nothing. */
  allowance: BaggageAllowance[] | undefined;
}

export interface PricedJourney {
  id: string;
  journeyId: string;
  brand: FareBrand;
  currency: CurrencyCode;
  pax: PricedPax[];
  conditions: ConditionsOutcome;
  /** Every passenger, every tax. */
  total: Money;
}

export interface PriceJourneyInput {
  seed: string | number;
  journey: Journey;
  brandCode: string;
  pax: PaxCounts;
  currency: CurrencyCode;
}

function checkPax(pax: PaxCounts): void {
  const adults = pax.ADT ?? 0;
  for (const t of PAX_TYPES) {
    const n = pax[t] ?? 0;
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`passenger count for ${t} must be a whole number, got ${n}`);
  }
  if (adults + (pax.CHD ?? 0) === 0) throw new RangeError("at least one adult or child is needed");
  if ((pax.INF ?? 0) > adults) throw new RangeError("each lap infant needs an adult");
}

/**
 * Prices one journey in one brand for a party. Components are converted one by one from the
 * base currency and then added, so totals equal the sum of what is shown (money/rates.ts).
 */
export function priceJourney(input: PriceJourneyInput): PricedJourney {
  checkPax(input.pax);
  const brand = fareBrand(input.brandCode);
  if (!brand) throw new RangeError(`unknown brand ${input.brandCode}`);
  const { journey, currency } = input;
  const first = journey.segments[0]!;
  const distance = journey.segments.reduce((km, s) => km + s.distanceKm, 0);
  const partyKey = PAX_TYPES.map((t) => `${t}${input.pax[t] ?? 0}`).join("");
  const pax: PricedPax[] = [];
  for (const paxType of PAX_TYPES) {
    const count = input.pax[paxType] ?? 0;
    if (count === 0) continue;
    const fare = convert(
      baseFare({
        seed: input.seed,
        origin: journey.origin,
        destination: journey.destination,
        date: first.date,
        cabin: brand.cabin,
        brand,
        paxType,
        distanceKm: distance,
        connections: journey.segments.length - 1,
      }),
      currency,
    );
    const taxes = journeyTaxes(journey.segments, brand.cabin, paxType).map((t) => ({ code: t.code, amount: convert(t.amount, currency) }));
    const taxTotal = sum(taxes.map((t) => t.amount), currency);
    pax.push({
      itemId: stableId("FARE", input.seed, journey.id, brand.code, paxType, partyKey, currency),
      paxType,
      count,
      baseFare: fare,
      taxes,
      taxTotal,
      total: add(fare, taxTotal),
      allowance: brand.allowance?.filter((a) => a.paxTypes.includes(paxType)),
    });
  }
  const total = sum(pax.map((p) => money(p.total.amount * p.count, currency)), currency);
  return {
    id: stableId("PJ", input.seed, journey.id, brand.code, partyKey, currency),
    journeyId: journey.id,
    brand,
    currency,
    pax,
    conditions: conditionsFor(brand.code),
    total,
  };
}
