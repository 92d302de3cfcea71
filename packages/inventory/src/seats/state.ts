import type { HoldableEvent, HoldRecord } from "../holdable/types";

/** What one seat hold takes: the seats, together, for one holder (an order, a web-shop basket). */
export interface SeatClaim {
  seatIds: string[];
  holder: string;
}

/** One hold on a flight: the seats it takes together, and where it stands. */
export type SeatHoldRecord = HoldRecord<SeatClaim>;

/**
 * A flight's seat inventory. `seatIds` and `occupied` come from the supply's seat map (the
 * seats sold by other channels before the gateway existed count as sold); `claims` maps each
 * seat the gateway's channels hold or sold to its hold. Plain objects, not Maps, because the
 * value is snapshotted as JSON.
 */
export interface SeatInventoryValue {
  flightKey: string;
  /** null: the supply has no such flight, so nothing can be held on it. */
  seatIds: string[] | null;
  occupied: string[];
  holds: Record<string, SeatHoldRecord>;
  claims: Record<string, string>;
}

export type SeatEvent = HoldableEvent<SeatClaim>;

/** Evolve: a new hold claims its seats; a released or expired one frees those it still claims. */
export function claimSeats(value: SeatInventoryValue, hold: SeatHoldRecord): SeatInventoryValue {
  const claims = { ...value.claims };
  for (const s of hold.seatIds) claims[s] = hold.holdId;
  return { ...value, claims };
}

export function freeSeats(value: SeatInventoryValue, hold: SeatHoldRecord): SeatInventoryValue {
  const claims = { ...value.claims };
  for (const s of hold.seatIds) if (claims[s] === hold.holdId) delete claims[s];
  return { ...value, claims };
}
