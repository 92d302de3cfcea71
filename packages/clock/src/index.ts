/**
 * Time is injected so tests and the operations simulation can move it (DESIGN 4).
 *
 * Two clocks, never mixed up: the security clock (token lifetimes, TOTP, staff sessions, rate
 * limits, webhook-timestamp) is real time, which a receiver's or an authenticator's clock agrees
 * with; the business clock (payment time limits, fee bands, departures, hold lapses) is the one
 * the sandbox controls may move. Tests inject a ManualClock as the security clock and the base
 * of the business clock; only the sandbox's offset separates them.
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

/** A clock the sandbox controls move forward (POST /sandbox/clock): ManualClock, or the wall clock with an offset. */
export interface MovableClock extends Clock {
  advance(ms: number): void;
}

export function isMovable(clock: Clock): clock is MovableClock {
  return typeof (clock as Partial<MovableClock>).advance === "function";
}

/**
 * Business time in local mode: the base clock (the security clock) moved forward by what the
 * local sandbox asked for (docs/sandbox-controls.md). Moving it never moves the base.
 */
export class OffsetClock implements MovableClock {
  private offset = 0;
  constructor(private readonly base: Clock = systemClock) {}
  now(): number {
    return this.base.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}
