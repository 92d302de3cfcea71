/** Minutes kept: the figures say "the last hour". */
export const RING_MINUTES = 60;
export const MINUTE_MS = 60_000;

/**
 * Counters per minute for the last hour: `width` numbers per minute in one typed array of 60
 * slots, the slot of minute m at m % 60. A slot still holding an older minute is zeroed when its
 * minute comes round again, so recording is O(width) at most and reading never needs a sweep.
 */
export class MinuteRing {
  private readonly minuteOf = new Float64Array(RING_MINUTES).fill(-1);
  readonly counts: Float64Array;

  constructor(readonly width: number) {
    this.counts = new Float64Array(RING_MINUTES * width);
  }

  /** The offset of `minute`'s first counter, its slot cleared first if it held an older minute. */
  at(minute: number): number {
    const slot = minute % RING_MINUTES;
    const offset = slot * this.width;
    if (this.minuteOf[slot] !== minute) {
      this.minuteOf[slot] = minute;
      this.counts.fill(0, offset, offset + this.width);
    }
    return offset;
  }

  /** Whether the slot at `slot` holds one of the 60 minutes ending with `nowMinute`. */
  live(slot: number, nowMinute: number): boolean {
    const m = this.minuteOf[slot]!;
    return m > nowMinute - RING_MINUTES && m <= nowMinute;
  }

  /** The counters of the last hour added together (`width` numbers). */
  lastHour(nowMinute: number): Float64Array {
    const out = new Float64Array(this.width);
    for (let s = 0; s < RING_MINUTES; s++) {
      if (!this.live(s, nowMinute)) continue;
      const o = s * this.width;
      for (let k = 0; k < this.width; k++) out[k] = out[k]! + this.counts[o + k]!;
    }
    return out;
  }
}
