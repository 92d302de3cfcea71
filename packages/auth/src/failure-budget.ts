import { eq, lt, sql } from "drizzle-orm";
import type { Clock } from "@ndc/clock";
import { preparedOnce, type Store } from "@ndc/store";
import { failureBudgets as T } from "./tables";
import type { FailureBudget, RateDecision } from "./types";

const MINUTE_MS = 60_000;

const select = preparedOnce((db) => db.select({ tokens: T.tokens, updatedAt: T.updatedAt }).from(T).where(eq(T.source, sql.placeholder("source"))).limit(1).prepare());

/**
 * Failed authentications per source, a token bucket of `perMinute` (burst = the figure, refilled
 * continuously), kept in the store: one budget however many gateway processes share the data
 * directory, so a spray of wrong secrets split over the workers (SO_REUSEPORT hands each new
 * connection to any of them) is counted once. Failures are rare, so a write per token request
 * is cheap beside the argon2id verify it guards; the per-call NDC limits stay in memory
 * (rate-limiter.ts).
 *
 * `take` reserves a unit in a write transaction before the check it limits, so concurrent
 * requests (in this process or another) cannot all slip through; `give` returns it when the check
 * did not fail. Both read and write the row in one transaction: writes to the database are
 * serialised across processes, so no two see the same count. Real time (the security clock):
 * every process of one machine reads the same.
 */
export function storeFailureBudget(store: Store, perMinute: number, clock: Clock): FailureBudget {
  let lastSweep = clock.now();
  const refilled = (row: { tokens: number; updatedAt: number } | undefined, now: number) =>
    row ? Math.min(perMinute, row.tokens + (Math.max(0, now - row.updatedAt) * perMinute) / MINUTE_MS) : perMinute;

  return {
    async take(source): Promise<RateDecision> {
      const now = clock.now();
      const sweep = now - lastSweep >= MINUTE_MS;
      if (sweep) lastSweep = now;
      return store.write(async (tx) => {
        // A bucket left alone for a minute is full again: dropping it changes nothing.
        if (sweep) await tx.delete(T).where(lt(T.updatedAt, now - MINUTE_MS));
        const tokens = refilled((await select(tx).all({ source }))[0], now);
        if (tokens < 1) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(((1 - tokens) * MINUTE_MS) / perMinute / 1000)) };
        await tx
          .insert(T)
          .values({ source, tokens: tokens - 1, updatedAt: now })
          .onConflictDoUpdate({ target: T.source, set: { tokens: tokens - 1, updatedAt: now } });
        return { ok: true };
      });
    },
    async give(source) {
      const now = clock.now();
      await store.write(async (tx) => {
        const row = (await select(tx).all({ source }))[0];
        if (!row) return;
        await tx
          .update(T)
          .set({ tokens: Math.min(perMinute, refilled(row, now) + 1), updatedAt: now })
          .where(eq(T.source, source));
      });
    },
  };
}
