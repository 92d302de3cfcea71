import type { Clock } from "@ndc/clock";
import type { RateLimitConfig } from "@ndc/config";
import type { RateDecision, RateLimiter } from "./types";

type RateClassName = "shop" | "default" | "token";

interface Bucket {
  tokens: number;
  last: number;
}

const MINUTE_MS = 60_000;

/**
 * Token buckets per credential and class (spec 8): burst = the per-minute figure, refilled
 * continuously. Memory is bounded: a bucket left alone for a minute is full again, so it is
 * dropped with no change in behaviour; past `maxBuckets` the least recently used go first.
 *
 * In this process's memory: these limits are taken on every NDC call, and a store write per call
 * would cost the hot path a commit. Several gateway processes (GATEWAY_WORKERS) each allow their
 * share, the figure divided by the workers and rounded down (at least 1), so together they never
 * allow more than the figure (docs/authentication.md "Rate limits across processes"). Failed
 * client authentications are counted in the store instead (failure-budget.ts).
 */
export function createRateLimiter(
  limits: RateLimitConfig,
  clock: Clock,
  opts: { maxBuckets?: number } = {},
): RateLimiter & { readonly size: number } {
  const workers = limits.workers ?? 1;
  const share = (figure: number) => Math.max(1, Math.floor(figure / workers));
  const perMinute: Record<RateClassName, number> = {
    shop: share(limits.shopPerMinute),
    default: share(limits.defaultPerMinute),
    token: share(limits.tokenPerMinute),
  };
  const maxBuckets = opts.maxBuckets ?? 100_000;
  // Map iteration order is insertion order; each take re-inserts, so the first entries are the idlest.
  const buckets = new Map<string, Bucket>();
  let lastSweep = clock.now();

  function sweep(now: number): void {
    for (const [k, b] of buckets) {
      if (now - b.last < MINUTE_MS) break;
      buckets.delete(k);
    }
    while (buckets.size >= maxBuckets) {
      const oldest = buckets.keys().next().value;
      if (oldest === undefined) break;
      buckets.delete(oldest);
    }
    lastSweep = now;
  }

  return {
    /** Buckets held, for tests and metrics. */
    get size() {
      return buckets.size;
    },
    take(key: string, cls: RateClassName): RateDecision {
      const now = clock.now();
      if (buckets.size >= maxBuckets || now - lastSweep >= MINUTE_MS) sweep(now);
      const rate = perMinute[cls];
      const b = refilled(`${cls}\u0000${key}`, rate, now);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { ok: true };
      }
      const waitMs = ((1 - b.tokens) * MINUTE_MS) / rate;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
    give(key: string, cls: RateClassName): void {
      const now = clock.now();
      const rate = perMinute[cls];
      const b = refilled(`${cls}\u0000${key}`, rate, now);
      b.tokens = Math.min(rate, b.tokens + 1);
    },
  };

  /** The bucket brought up to now (and moved to the recent end of the map). */
  function refilled(id: string, rate: number, now: number): Bucket {
    const prev = buckets.get(id);
    const b: Bucket = prev
      ? { tokens: Math.min(rate, prev.tokens + (Math.max(0, now - prev.last) * rate) / MINUTE_MS), last: now }
      : { tokens: rate, last: now };
    buckets.delete(id);
    buckets.set(id, b);
    return b;
  }
}
