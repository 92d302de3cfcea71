import type { Channel, Refusal } from "../types";
import type { SeatHoldRecord } from "./state";

/**
 * What a seat inventory actor is asked. `sell` is hold and confirm as one command (one
 * transaction), for channels that take payment before they ask (the web shop): no hold is
 * left behind if the process dies between the two.
 */
export type SeatCommand =
  | { op: "hold" | "sell"; seatIds: string[]; holder: string; channel: Channel; expiresAt: number; holdId?: string }
  | { op: "confirm"; holdId: string }
  | { op: "release"; holdId: string }
  | { op: "expire" }
  | { op: "availability" };

/** A hold as callers see it. */
export interface SeatHold extends SeatHoldRecord {
  flightKey: string;
}

export type SeatStatus = "available" | "occupied" | "held" | "sold";

export interface SeatAvailability {
  flightKey: string;
  /** Every seat of the map in map order; `occupied` = sold before or outside the gateway. */
  seats: { seatId: string; status: SeatStatus; channel?: Channel }[];
  counts: Record<SeatStatus, number>;
}

export type SeatReply =
  | { kind: "hold"; hold: SeatHold }
  | { kind: "expired"; holdIds: string[] }
  | { kind: "availability"; availability: SeatAvailability }
  | Refusal;
