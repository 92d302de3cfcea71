/**
 * Time is injected so tests and the operations simulation can move it (DESIGN 4).
 *
 * Two clocks, never mixed up: the security clock (token lifetimes, TOTP, staff sessions, rate
 * limits, webhook-timestamp) is real time, which a receiver's or an authenticator's clock agrees
 * with; the business clock (payment time limits, fee bands, departures, hold lapses) is the one
 * sandbox controls may move, per seller (seller-time.ts). Tests inject a ManualClock as the
 * security clock and the base of the business clock; only a seller's sandbox offset separates them.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private t: number = Date.UTC(2026, 10, 21, 12, 0, 0)) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(ms: number): void {
    this.t = ms;
  }
}

export { BusinessClock, atSellerOffset, sellerOffset, type SellerClocks } from "./seller-time";

/**
 * The wall clock as if it had read `startMs` at the real instant `atMs` (default: now, when this
 * is called), running at real speed from there: SANDBOX_CLOCK_START's business time, anchored at
 * SANDBOX_CLOCK_STARTED_AT so that processes started at different moments read the same time
 * (docs/testing.md).
 */
export function startedAt(startMs: number, atMs: number = Date.now()): Clock {
  const offset = startMs - atMs;
  return { now: () => Date.now() + offset };
}

/**
 * The base of a process's business time: the wall clock, or, when SANDBOX_CLOCK_START is set
 * (local mode), that instant anchored at SANDBOX_CLOCK_STARTED_AT. The one rule for every process
 * of a data directory (gateway workers, the scheduler app), so that they read the same time.
 */
export function sandboxStartClock(config: { sandboxClockStart?: number; sandboxClockStartedAt?: number }): Clock {
  return config.sandboxClockStart === undefined ? systemClock : startedAt(config.sandboxClockStart, config.sandboxClockStartedAt);
}
