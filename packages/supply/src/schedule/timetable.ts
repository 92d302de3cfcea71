import { rngFor } from "../core/random";
import { DIRECT_ROUTES, INTERLINE_ROUTES } from "../network";
import { CODESHARES } from "./carriers";
import { LONG_HAUL_KM, distanceKm } from "./geo";

/**
 * The timetable: every scheduled leg, flown daily, with its local departure time at the origin.
 * Built once per seed; the flight of a given day is this leg placed on that date (flights.ts).
 */
export interface ScheduledLeg {
  origin: string;
  destination: string;
  /** "own" we market and operate; "codeshare" we market, a partner operates; "interline" a partner markets and operates. */
  kind: "own" | "codeshare" | "interline";
  marketingCarrier: string;
  marketingNumber: number;
  operatingCarrier: string;
  operatingNumber: number;
  /** Local departure, minutes after midnight at the origin. */
  departureMinutes: number;
  /** Index of this frequency on the route (0 = first of the day); picks the aircraft. */
  frequency: number;
  longHaul: boolean;
}

/** Daily frequencies of short-haul routes (both ways); unlisted short-haul routes fly twice a day. */
const FREQUENCY: Readonly<Record<string, number>> = {
  "LHR-CDG": 3,
  "LHR-FRA": 3,
  "CDG-FRA": 3,
};

/**
 * Banks of short-haul departures (local minutes): morning arrivals at the hubs feed the midday
 * long-haul bank, evening departures meet the long-haul arrivals of the morning.
 */
const SHORT_HAUL_BANKS = [
  [7 * 60 + 10, 18 * 60 + 20, 12 * 60 + 40],
  [8 * 60 + 50, 20 * 60 + 5, 14 * 60 + 30],
] as const;

/**
 * Long-haul departures (local) per direction, timed like a real network: European departures
 * around midday, overnight returns landing in the morning bank, and a late Dubai-Singapore
 * departure that collects the European arrivals. Routes with two frequencies list two times.
 */
const LONG_HAUL_DEPARTURES: Readonly<Record<string, readonly number[]>> = {
  "LHR-JFK": [9 * 60 + 30, 17 * 60 + 30],
  "JFK-LHR": [18 * 60 + 45, 21 * 60 + 30],
  "LHR-DXB": [9 * 60 + 40],
  "DXB-LHR": [8 * 60 + 20],
  "CDG-GRU": [13 * 60 + 15],
  "GRU-CDG": [17 * 60 + 40],
  "CDG-JFK": [13 * 60 + 30],
  "JFK-CDG": [19 * 60 + 50],
  "FRA-SIN": [13 * 60 + 20],
  "SIN-FRA": [23 * 60 + 15],
  "FRA-DXB": [10 * 60 + 15],
  "DXB-FRA": [8 * 60 + 45],
  "MAD-GRU": [12 * 60 + 50],
  "GRU-MAD": [16 * 60 + 30],
  "DXB-SIN": [22 * 60 + 30],
  "SIN-DXB": [18 * 60 + 40],
  "FCO-DXB": [11 * 60],
  "DXB-FCO": [9 * 60 + 30],
  "JFK-GRU": [22 * 60],
  "GRU-JFK": [23 * 60 + 10],
};

/** Published times plus a seeded 0-20 minute shift, so different seeds give different timetables. */
function departureSlots(seed: string | number, origin: string, destination: string, longHaul: boolean, outbound: boolean): number[] {
  const rng = rngFor(seed, "slots", origin, destination);
  if (longHaul) {
    const times = LONG_HAUL_DEPARTURES[`${origin}-${destination}`];
    if (!times) throw new RangeError(`no long-haul departure times for ${origin}-${destination}`);
    return times.map((m) => m + rng.int(5) * 5);
  }
  const count = FREQUENCY[outbound ? `${origin}-${destination}` : `${destination}-${origin}`] ?? 2;
  return SHORT_HAUL_BANKS[outbound ? 0 : 1].slice(0, count).map((m) => m + rng.int(5) * 5);
}

export function buildTimetable(seed: string | number, designator: string): ScheduledLeg[] {
  const legs: ScheduledLeg[] = [];
  DIRECT_ROUTES.forEach(([a, b], routeIndex) => {
    const longHaul = distanceKm(a, b) > LONG_HAUL_KM;
    for (const [origin, destination, outbound] of [[a, b, true], [b, a, false]] as const) {
      departureSlots(seed, origin, destination, longHaul, outbound).forEach((minutes, frequency) => {
        // Odd numbers one way, even the other, as airlines do; 10 numbers reserved per route.
        const number = 100 + routeIndex * 10 + frequency * 2 + (outbound ? 0 : 1);
        const share = CODESHARES.find(
          (c) => c.frequency === frequency && ((c.route[0] === a && c.route[1] === b) || (c.route[0] === b && c.route[1] === a)),
        );
        legs.push({
          origin,
          destination,
          kind: share ? "codeshare" : "own",
          marketingCarrier: designator,
          marketingNumber: number,
          operatingCarrier: share ? share.operator : designator,
          operatingNumber: share ? number + 6000 : number,
          departureMinutes: minutes,
          frequency,
          longHaul,
        });
      });
    }
  });
  INTERLINE_ROUTES.forEach(([a, b, carrier], i) => {
    const longHaul = distanceKm(a, b) > LONG_HAUL_KM;
    for (const [origin, destination, outbound] of [[a, b, true], [b, a, false]] as const) {
      const [minutes] = departureSlots(seed, origin, destination, longHaul, outbound);
      const number = 800 + i * 10 + (outbound ? 1 : 2);
      legs.push({
        origin,
        destination,
        kind: "interline",
        marketingCarrier: carrier,
        marketingNumber: number,
        operatingCarrier: carrier,
        operatingNumber: number,
        departureMinutes: minutes!,
        frequency: 0,
        longHaul,
      });
    }
  });
  return legs;
}
