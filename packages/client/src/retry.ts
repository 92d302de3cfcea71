/**
 * Retries with exponential backoff and full jitter, honouring `Retry-After` on 429 and 503.
 * Only answers that say the request was not processed (429, 503) or that it may not have
 * arrived (a connection error, 502, 504) are sent again, and always with the same bytes: the
 * messages this client sends are idempotent under their CorrelationID (and TrxID for the
 * order-writing ones), so a resend replays rather than repeats.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 5). */
  attempts: number;
  /** First backoff in ms (default 200); doubled per attempt. */
  baseDelayMs: number;
  /** Largest backoff in ms (default 10 000). */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails at once (default 60 000). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 200, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 };

const RETRIED_STATUS = new Set([429, 502, 503, 504]);

export function isRetriedStatus(status: number): boolean {
  return RETRIED_STATUS.has(status);
}

/** Retry-After as seconds or an HTTP date (RFC 9110 10.2.3), in ms from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const v = header.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 0): full jitter over the doubled
 * backoff (AWS's "exponential backoff and jitter"), so many sellers retrying after one outage
 * spread out. With a Retry-After, that long plus the jitter: never sooner than asked, and callers
 * told the same second do not all come back in it (a bucket refilling one call at a time would
 * refuse all but one of them again).
 */
export function backoffMs(policy: RetryPolicy, attempt: number, asked: number | undefined, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  const jittered = Math.round(ceiling * random());
  return asked === undefined ? jittered : asked + jittered;
}
