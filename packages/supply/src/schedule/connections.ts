import { addDays } from "../core/dates";
import { stableId } from "../core/ids";
import { HUBS } from "../network";
import type { Flight, FlightSchedule } from "./flights";

/**
 * Minimum connection time per hub in minutes (the hub's published MCT). A transfer onto or off a
 * partner's own flight (interline) needs longer, because bags and check-in are handed over.
 */
export const MINIMUM_CONNECTION_MINUTES: Readonly<Record<string, number>> = {
  LHR: 90,
  CDG: 80,
  FRA: 60,
  MAD: 60,
  DXB: 75,
};
export const INTERLINE_EXTRA_MINUTES = 30;
/** Beyond this the stop is a stopover, not a connection, and is not sold as one journey. */
export const MAXIMUM_CONNECTION_MINUTES = 14 * 60;

export interface Journey {
  /** Stable: derived from the seed and the flight keys. */
  id: string;
  origin: string;
  destination: string;
  segments: Flight[];
  /** Ground time at each connection point, in minutes (empty when direct). */
  connectionMinutes: number[];
  /** Departure of the first segment to arrival of the last. */
  durationMinutes: number;
}

export function minimumConnection(hub: string, inbound: Flight, outbound: Flight): number {
  const base = MINIMUM_CONNECTION_MINUTES[hub];
  if (base === undefined) throw new RangeError(`${hub} is not a hub`);
  const interline = inbound.kind === "interline" || outbound.kind === "interline";
  return base + (interline ? INTERLINE_EXTRA_MINUTES : 0);
}

function journey(seed: string | number, segments: Flight[]): Journey {
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  const connectionMinutes = segments.slice(1).map((s, i) => (s.departureUtcMs - segments[i]!.arrivalUtcMs) / 60_000);
  return {
    id: stableId("JRN", seed, ...segments.map((s) => s.key)),
    origin: first.origin,
    destination: last.destination,
    segments,
    connectionMinutes,
    durationMinutes: (last.arrivalUtcMs - first.departureUtcMs) / 60_000,
  };
}

/**
 * Journeys leaving on a local date: direct flights, and when no direct route exists, one-stop
 * connections through the hubs whose ground time is within [MCT, maximum]. Sorted by departure,
 * then by total duration.
 */
export function journeysOn(schedule: FlightSchedule, seed: string | number, origin: string, destination: string, date: string): Journey[] {
  if (origin === destination) return [];
  if (schedule.hasDirect(origin, destination)) {
    return schedule.flightsOn(origin, destination, date).map((f) => journey(seed, [f]));
  }
  const found: Journey[] = [];
  for (const hub of HUBS) {
    if (hub === origin || hub === destination) continue;
    const firsts = schedule.flightsOn(origin, hub, date);
    if (firsts.length === 0) continue;
    // A long first leg can land the next day (local), so look at onward flights on both days.
    const onward = [...schedule.flightsOn(hub, destination, date), ...schedule.flightsOn(hub, destination, addDays(date, 1))];
    for (const a of firsts) {
      for (const b of onward) {
        const ground = (b.departureUtcMs - a.arrivalUtcMs) / 60_000;
        if (ground >= minimumConnection(hub, a, b) && ground <= MAXIMUM_CONNECTION_MINUTES) found.push(journey(seed, [a, b]));
      }
    }
  }
  return found.sort(
    (x, y) => x.segments[0]!.departureUtcMs - y.segments[0]!.departureUtcMs || x.durationMinutes - y.durationMinutes || (x.id < y.id ? -1 : 1),
  );
}
