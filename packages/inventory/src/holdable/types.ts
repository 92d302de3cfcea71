import type { Channel, ClaimStatus, Refusal } from "../types";

/**
 * The data of a holdable stock (decision 0011): seats of a flight and units of a partner product
 * are both claimed by holds that are held until an expiry, then sold, released or expired. `C` is
 * what one hold takes (seats and their holder; a unit and its order); everything else is shared.
 */
export type HoldRecord<C> = { holdId: string } & C & { channel: Channel; expiresAt: number; status: ClaimStatus };

/** A stock's value: its holds by id, plus whatever index of claims the stock keeps (`claim`/`free`). */
export interface HoldableValue<C> {
  holds: Record<string, HoldRecord<C>>;
}

export type HeldEvent<C> = { type: "held"; holdId: string } & C & { channel: Channel; expiresAt: number; at: number };

/** Journal events; their JSON is what actor_journal holds, so their fields never change shape. */
export type HoldableEvent<C> =
  | HeldEvent<C>
  | { type: "sold"; holdId: string; at: number }
  | { type: "released"; holdId: string; at: number }
  | { type: "expired"; holdId: string; at: number };

/**
 * What a holdable stock's actor is asked. `R` is what a hold request names (seats and holder; an
 * order); `Q` the stock's query. `sell` is hold and confirm as one command (one transaction), for
 * channels that take payment before they ask. `holdId` is the caller's own id, so a retried step
 * finds its hold instead of taking a second one.
 */
export type HoldableCommand<R, Q extends string> =
  | HoldRequest<R>
  /**
   * `releases`: another hold given back in the same decision (a seat change: the new seat sold,
   * the old one freed, one write); `keeps`: part of that hold kept under a hold of its own.
   */
  | { op: "confirm"; holdId: string; releases?: string; keeps?: Keeps }
  /** `keeps`: part of the hold stays taken, under a new hold of its own, in the same decision (one seat of several cancelled). */
  | { op: "release"; holdId: string; keeps?: Keeps }
  | { op: "expire" }
  | { op: Q };

/**
 * Part of a hold that stays taken when the hold is released: the other passengers' seats when
 * one seat of a booking's shared hold is cancelled or changed. They move to the hold `holdId`
 * (the caller's id, so a retry finds it) with the released hold's holder, channel and status,
 * in the same decision: the freed seat is free to every channel, the kept ones never are.
 */
export interface Keeps {
  holdId: string;
  seatIds: string[];
}

export type HoldRequest<R> = { op: "hold" | "sell" } & R & { channel: Channel; expiresAt: number; holdId?: string };

/** `H` is a hold as callers see it (the record and its key), `QR` the query's reply. */
export type HoldableReply<H, QR> = { kind: "hold"; hold: H } | { kind: "expired"; holdIds: string[] } | QR | Refusal;

/** A held hold whose time has passed is as good as expired, whether or not it was swept yet. */
export function isLapsed(hold: { status: ClaimStatus; expiresAt: number }, now: number): boolean {
  return hold.status === "held" && hold.expiresAt <= now;
}
