import type { Channel, ClaimStatus } from "../types";

/** One hold on a flight: the seats it takes together, and where it stands. */
export interface SeatHoldRecord {
  holdId: string;
  seatIds: string[];
  holder: string;
  channel: Channel;
  expiresAt: number;
  status: ClaimStatus;
}

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

export type SeatEvent =
  | { type: "held"; holdId: string; seatIds: string[]; holder: string; channel: Channel; expiresAt: number; at: number }
  | { type: "sold"; holdId: string; at: number }
  | { type: "released"; holdId: string; at: number }
  | { type: "expired"; holdId: string; at: number };

/** Folds one event; pure and copy-on-write, used live and on replay. */
export function evolveSeats(value: SeatInventoryValue, e: SeatEvent): SeatInventoryValue {
  if (e.type === "held") {
    const claims = { ...value.claims };
    for (const s of e.seatIds) claims[s] = e.holdId;
    const hold: SeatHoldRecord = { holdId: e.holdId, seatIds: e.seatIds, holder: e.holder, channel: e.channel, expiresAt: e.expiresAt, status: "held" };
    return { ...value, claims, holds: { ...value.holds, [e.holdId]: hold } };
  }
  const hold = value.holds[e.holdId];
  if (!hold) return value;
  const status: ClaimStatus = e.type;
  const holds = { ...value.holds, [e.holdId]: { ...hold, status } };
  if (e.type === "sold") return { ...value, holds };
  const claims = { ...value.claims };
  for (const s of hold.seatIds) if (claims[s] === e.holdId) delete claims[s];
  return { ...value, holds, claims };
}

/** A held hold whose time has passed is as good as expired, whether or not it was swept yet. */
export function isLapsed(hold: SeatHoldRecord, now: number): boolean {
  return hold.status === "held" && hold.expiresAt <= now;
}
