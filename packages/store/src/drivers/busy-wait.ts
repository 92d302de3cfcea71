import { GatewayError } from "@ndc/errors";
import { storeErrorCode } from "../errors";

/**
 * The write lock of a database file other processes write too (docs/decisions/0040).
 *
 * bun:sqlite is synchronous: with a busy_timeout, a BEGIN IMMEDIATE that finds another process
 * holding the lock sleeps inside SQLite, and the whole event loop with it (every request, timer and
 * fsync callback of this process; in one process with two stores, the very transaction it waits
 * for). So the writer asks SQLite never to wait (busy_timeout 0) and waits here instead: the
 * statement is tried again after short jittered pauses on timers, until `maxWaitMs` has passed;
 * then the write fails with actor_busy (503, Retry-After 1), the seller's cue to try again.
 */
export const WRITE_LOCK_WAIT_MS = 5_000;

export async function whenFree<T>(statement: () => T, what: string, maxWaitMs = WRITE_LOCK_WAIT_MS): Promise<T> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return statement();
    } catch (e) {
      if (!isBusy(e)) throw e;
      const waited = performance.now() - started;
      if (waited >= maxWaitMs) {
        const busy = new GatewayError("actor_busy", { detail: `(the database's write lock was held by another process for ${Math.round(waited)} ms: ${what})`, retryAfterSeconds: 1 });
        (busy as { cause?: unknown }).cause = e;
        throw busy;
      }
      // 0.25 ms doubling to 4 ms, each from half to one and a half of that: waiters fall out of step.
      // Short: another process's batch holds the lock a millisecond or two, and every millisecond
      // waited here is latency for each write of this process's next batch (bench/scale-out.ts: a
      // 16 ms cap kept two workers below one).
      const ms = Math.min(0.25 * 2 ** attempt, 4) * (0.5 + Math.random());
      await new Promise((r) => setTimeout(r, ms));
    }
  }
}

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY...); never LOCKED (this connection's own). */
export function isBusy(error: unknown): boolean {
  return storeErrorCode(error)?.startsWith("SQLITE_BUSY") ?? false;
}
