import { rngFor, type Flight } from "@ndc/supply";

const HOUR_MS = 3_600_000;

/** A disruption the airline's operations announce for one flight. */
export interface Disruption {
  flightKey: string;
  kind: "retime" | "cancel";
  /** A retime's minutes (later when positive). */
  minutes?: number;
  /** When the feed announces it (epoch ms), before the flight's departure. */
  announceAt: number;
}

/**
 * The simulated operations feed (docs/notifications.md, "order.changed"): whether the airline
 * disrupts a flight is a pure function of the supply seed and the flight key, so the same seed
 * gives the same disruptions on every gateway and run. `perMille` flights in a thousand are
 * disrupted: one in five of them cancelled, the others retimed by 15 minutes to 4 hours later
 * (one in ten 15 to 60 minutes earlier), announced 2 to 47 hours before departure.
 */
export function disruptionOf(seed: string, flight: Flight, perMille: number): Disruption | undefined {
  const rng = rngFor(seed, "operations", flight.key);
  if (!rng.chance(perMille)) return undefined;
  const announceAt = flight.departureUtcMs - rng.between(2, 47) * HOUR_MS;
  if (rng.chance(200)) return { flightKey: flight.key, kind: "cancel", announceAt };
  const minutes = rng.chance(100) ? -15 * rng.between(1, 4) : 15 * rng.between(1, 16);
  return { flightKey: flight.key, kind: "retime", minutes, announceAt };
}
