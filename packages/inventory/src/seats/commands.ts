import type { Channel } from "../types";
import type { HoldableCommand, HoldableReply } from "../holdable/types";
import type { SeatHoldRecord } from "./state";

/**
 * What a seat inventory actor is asked: the holdable-stock commands (hold, sell, confirm,
 * release, expire) with seats and their holder, plus `availability`.
 */
export type SeatCommand = HoldableCommand<{ seatIds: string[]; holder: string }, "availability">;

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

export type SeatReply = HoldableReply<SeatHold, { kind: "availability"; availability: SeatAvailability }>;
