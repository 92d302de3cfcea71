import type { Clock } from "@ndc/clock";
import type { Store, StoreDb } from "@ndc/store";
import { readKey, writeKey } from "./idempotency";

/**
 * A multi-step operation under one idempotency key (rocket-rides style): the plan is computed and
 * stored as a recovery point in one transaction, each step runs under its own derived key, and
 * the answer is stored when all steps are done. A retry replays the answer, or re-runs the same
 * stored plan, whose steps are idempotent, so nothing moves twice.
 */
export async function keyed<P, R>(
  store: Store,
  clock: Clock,
  op: { name: string; key: string; fingerprint: string },
  plan: (tx: StoreDb) => Promise<P>,
  run: (plan: P) => Promise<R>,
): Promise<R> {
  const first = await store.write(async (tx) => {
    const rec = await readKey<unknown>(tx, op.key, op.name, op.fingerprint);
    if (rec?.state === "done") return { done: rec.response as R };
    if (rec) return { plan: rec.response as P };
    const p = await plan(tx);
    await writeKey(tx, op.key, op.name, op.fingerprint, "in_flight", p ?? null, clock.now());
    return { plan: p };
  });
  if ("done" in first) return first.done as R;
  const result = await run(first.plan);
  await store.write((tx) => writeKey(tx, op.key, op.name, op.fingerprint, "done", result, clock.now()));
  return result;
}
