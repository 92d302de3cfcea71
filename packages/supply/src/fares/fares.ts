import { month, weekday } from "../core/dates";
import { rngFor } from "../core/random";
import { BASE_CURRENCY } from "../exchange/rates";
import { mulDivRound, money, type Money } from "@ndc/money";
import { LONG_HAUL_KM } from "../schedule/geo";
import type { CabinCode } from "../schedule/flights";
import type { FareBrand } from "./brands";
import type { PaxType } from "./pax";

/**
 * Base fares (before taxes) in the base currency. Everything is per-mille integer factors so
 * the result is exact and the same on every machine:
 *   adult = distance fare x cabin x brand x season x weekday x seeded route/day noise,
 * rounded to whole euros; a child pays 75 % and a lap infant 10 % of the adult fare.
 */
const CABIN_FACTOR: Readonly<Record<CabinCode, number>> = { ECONOMY: 1_000, BUSINESS: 3_800 };
const PAX_SHARE: Readonly<Record<PaxType, number>> = { ADT: 1_000, CHD: 750, INF: 100 };
/** A connection is cheaper per kilometre than two local fares, as on real networks. */
const CONNECTION_FACTOR = 900;

function seasonFactor(date: string): number {
  const m = month(date);
  if (m === 7 || m === 8 || m === 12) return 1_200;
  if (m === 6 || m === 9) return 1_100;
  if (m === 1 || m === 2 || m === 11) return 900;
  return 1_000;
}

function weekdayFactor(date: string): number {
  const d = weekday(date);
  if (d === 4 || d === 6) return 1_100; // Friday, Sunday
  if (d === 1 || d === 2) return 950; // Tuesday, Wednesday
  return 1_000;
}

/** Distance fare in cents: a fixed part plus a per-kilometre part, lower per km on long haul. */
function distanceCents(km: number): number {
  return km > LONG_HAUL_KM ? 15_000 + mulDivRound(km, 55, 10) : 4_000 + km * 9;
}

export interface FareQuery {
  seed: string | number;
  origin: string;
  destination: string;
  /** Local departure date of the first flight. */
  date: string;
  cabin: CabinCode;
  brand: FareBrand;
  paxType: PaxType;
  /** Flown distance of the whole journey (sum of segments). */
  distanceKm: number;
  connections: number;
}

export function baseFare(q: FareQuery): Money {
  // Noise is per route, day and cabin, not per brand, so brands keep their order on every day.
  const noise = rngFor(q.seed, "fare", q.origin, q.destination, q.date, q.cabin).between(900, 1_100);
  const factors = [
    CABIN_FACTOR[q.cabin],
    q.brand.priceFactorPerMille,
    seasonFactor(q.date),
    weekdayFactor(q.date),
    noise,
    q.connections > 0 ? CONNECTION_FACTOR : 1_000,
  ];
  const product = factors.reduce((acc, f) => acc * BigInt(f), 1n);
  const adultCents = mulDivRound(BigInt(distanceCents(q.distanceKm)), product, 1000n ** BigInt(factors.length));
  const adultWholeEuros = mulDivRound(adultCents, 1, 100) * 100;
  return money(mulDivRound(adultWholeEuros, PAX_SHARE[q.paxType], 1_000), BASE_CURRENCY);
}
