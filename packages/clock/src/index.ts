/** Time is injected so tests and the operations simulation can move it (DESIGN 4). */
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

/** The wall clock moved forward by what the local sandbox asked for (docs/sandbox-controls.md). */
export class OffsetClock implements MovableClock {
  /** `offset`: where the clock starts relative to the wall clock (SANDBOX_CLOCK_START; default 0, the real time). */
  constructor(private offset = 0) {}
  now(): number {
    return Date.now() + this.offset;
  }
  advance(ms: number): void {
    this.offset += ms;
  }
}
