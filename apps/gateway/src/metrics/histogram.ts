/**
 * Fixed latency buckets (upper bounds, milliseconds) shared by every message: recording a call is
 * one short scan of this array, whatever the traffic, and two histograms add slot by slot. From
 * 0.25 ms (an NDC Error answer in process) to 10 s (the longest a call should ever take); slower
 * calls fall in the last, unbounded slot.
 */
export const BUCKETS_MS = [0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000] as const;

/** Slots per histogram: one per bound and one for +Inf. */
export const SLOTS = BUCKETS_MS.length + 1;

/** The slot of a duration: the first bound it does not exceed (Prometheus `le`), else +Inf. */
export function slotOf(ms: number): number {
  let i = 0;
  while (i < BUCKETS_MS.length && ms > BUCKETS_MS[i]!) i++;
  return i;
}

/**
 * A quantile estimated from per-slot counts (`counts[offset..offset+SLOTS)`, not cumulative), as
 * Prometheus's histogram_quantile does: linear within the slot it falls in, its lower bound the
 * previous slot's bound (0 for the first). A quantile in the +Inf slot answers the highest finite
 * bound. Null when nothing was counted. Accurate to the width of one bucket, which is what a
 * fixed-bucket histogram buys its O(1) recording with.
 */
export function quantileMs(counts: ArrayLike<number>, q: number, offset = 0): number | null {
  let total = 0;
  for (let i = 0; i < SLOTS; i++) total += counts[offset + i]!;
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < SLOTS; i++) {
    const c = counts[offset + i]!;
    if (c > 0 && seen + c >= rank) {
      if (i === BUCKETS_MS.length) return BUCKETS_MS[BUCKETS_MS.length - 1]!;
      const lower = i === 0 ? 0 : BUCKETS_MS[i - 1]!;
      const upper = BUCKETS_MS[i]!;
      return lower + (upper - lower) * ((rank - seen) / c);
    }
    seen += c;
  }
  return BUCKETS_MS[BUCKETS_MS.length - 1]!;
}
