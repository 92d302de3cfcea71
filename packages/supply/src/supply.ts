import type { CurrencyCode } from "@ndc/money";
import { BASE_CURRENCY } from "./exchange/rates";
import { priceSeat } from "./catalogue/price-items";
import { priceJourney, type PaxCounts, type PricedJourney } from "./fares/price-journey";
import { SimulatedPromotionsEngine, type EngineMode } from "./promotions/engine";
import { journeysOn, type Journey } from "./schedule/connections";
import { ownCarrier, type Carrier } from "./schedule/carriers";
import { FlightSchedule, type Flight } from "./schedule/flights";
import { buildTimetable } from "./schedule/timetable";
import { buildSeatMap, type SeatMap } from "./seats/seat-map";
import { Memo } from "./core/memo";

/**
 * The simulated airline for one seed and start date: the schedule, journeys, seat maps and
 * fares bound together. Everything it answers is a pure function of (seed, start date,
 * designator, arguments), so two instances built alike answer alike.
 */
export interface SupplyOptions {
  seed: string | number;
  /** First day of the 330-day sale horizon (ISO date); usually today's date from the clock. */
  startDate: string;
  /** Our airline designator (AIRLINE_DESIGNATOR), default XB. */
  designator?: string;
  airlineName?: string;
  /** Initial switch of the promotions engine. */
  promotionsMode?: EngineMode;
  /** How long the "slow" engine takes to answer. */
  promotionsSlowDelayMs?: number;
}

export type PricedSeatMap = SeatMap & { currency: CurrencyCode; seatItemIds: Readonly<Record<string, string>> };

export interface Supply {
  readonly seed: string | number;
  readonly startDate: string;
  /** Last day with flights (start + 329). */
  readonly lastDate: string;
  readonly carrier: Carrier;
  readonly schedule: FlightSchedule;
  readonly promotions: SimulatedPromotionsEngine;
  flightsOn(origin: string, destination: string, date: string): Flight[];
  flight(key: string): Flight | undefined;
  journeys(origin: string, destination: string, date: string): Journey[];
  /** Seats with availability and price in the currency (default the base currency); undefined for an unknown flight. */
  seatMap(flightKey: string, currency?: CurrencyCode): PricedSeatMap | undefined;
  priceJourney(journey: Journey, brandCode: string, pax: PaxCounts, currency: CurrencyCode): PricedJourney;
}

export function createSupply(options: SupplyOptions): Supply {
  const designator = (options.designator ?? "XB").toUpperCase();
  const carrier = ownCarrier(designator, options.airlineName);
  const schedule = new FlightSchedule(buildTimetable(options.seed, designator), options.startDate, carrier);
  const { seed } = options;
  const memo = supplyMemo();
  return {
    seed,
    startDate: options.startDate,
    lastDate: schedule.lastDate,
    carrier,
    schedule,
    promotions: new SimulatedPromotionsEngine({ mode: options.promotionsMode, slowDelayMs: options.promotionsSlowDelayMs }),
    flightsOn: (o, d, date) => schedule.flightsOn(o, d, date),
    flight: (key) => schedule.flight(key),
    journeys: (o, d, date) => memo.journeys.get(`${o}|${d}|${date}`, () => journeysOn(schedule, seed, o, d, date)),
    seatMap: (flightKey, currency = BASE_CURRENCY) => memo.seatMaps.get(`${flightKey}|${currency}`, () => pricedSeatMap(flightKey, currency)),
    priceJourney: (journey, brandCode, pax, currency) =>
      memo.fares.get(`${journey.id}|${brandCode}|${paxKey(pax)}|${currency}`, () => priceJourney({ seed, journey, brandCode, pax, currency })),
  };

  function pricedSeatMap(flightKey: string, currency: CurrencyCode): PricedSeatMap | undefined {
    const flight = schedule.flight(flightKey);
    if (!flight) return undefined;
    const map = buildSeatMap(flight, seed);
    const seatItemIds: Record<string, string> = {};
    const cabins = map.cabins.map((c) => ({
      ...c,
      seats: c.seats.map((s) => {
        const priced = priceSeat(seed, flightKey, s.id, s.price, currency);
        seatItemIds[s.id] = priced.itemId;
        return { ...s, price: priced.price };
      }),
    }));
    return { ...map, cabins, currency, seatItemIds };
  }
}

/**
 * Bounds of the cross-request memo of pure supply answers (docs/supply.md, "Caches"): journeys of
 * a route and day, a journey priced in a brand for a party and currency, a priced seat map (layout
 * and prices; never which seats are taken). Each is a pure function of the seed, start date and
 * its arguments, so a stored answer can never go stale.
 */
export const SUPPLY_MEMO_MAX = { journeys: 1_024, fares: 4_096, seatMaps: 128 } as const;

function supplyMemo() {
  return {
    journeys: new Memo<Journey[]>(SUPPLY_MEMO_MAX.journeys),
    fares: new Memo<PricedJourney>(SUPPLY_MEMO_MAX.fares),
    seatMaps: new Memo<PricedSeatMap | undefined>(SUPPLY_MEMO_MAX.seatMaps),
  };
}

/** Passenger counts as a key, in a fixed order whatever order the object was built in. */
function paxKey(pax: PaxCounts): string {
  return Object.keys(pax)
    .sort()
    .map((k) => `${k}${pax[k as keyof PaxCounts]}`)
    .join(",");
}
