/**
 * When a failed attempt is tried again (issue 10): about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h
 * after attempts 1..7; after the 8th failed attempt the delivery is failed. Jitter of up to +10 %
 * spreads retries of many deliveries that failed together (one endpoint down).
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A Retry-After longer than this is read as this: a receiver cannot park a delivery for days. */
export const MAX_RETRY_AFTER_MS = 36_000_000;

/** The time of the next attempt after `attempts` failed ones, or null when the schedule is spent. */
export function nextAttemptAt(now: number, attempts: number, retryAfterMs?: number, random: () => number = Math.random): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attempts - 1]!;
  const scheduled = base + Math.floor(base * 0.1 * random());
  // Retry-After is honoured when it asks for longer than the schedule would wait.
  return now + Math.max(scheduled, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}
