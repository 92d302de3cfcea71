import type { OrdersContext } from "../context";
import { instancesByLife, LIVE_OWNER_GRACE_MS } from "../liveness/instances";
import { clearFailure, failureIds, recordFailure } from "./failures";
import { RECOVERIES } from "./recoveries";

export interface ReconcileReport {
  finished: string[];
  compensated: string[];
  /** Operations whose step failed again; left running for the next pass, or raised to staff (`raised`). */
  failed: { sagaId: string; error: string }[];
  /** Raised now as reconcile_failed staff items (their last attempt failed). */
  raised: string[];
}

/**
 * Every operation still running whose last recovery point is at least `minAgeMs` old (so one a
 * live request is still running is left alone; one another live process owns, at least
 * LIVE_OWNER_GRACE_MS old), or whose process is known dead whatever its age
 * (liveness/instances.ts), read from the operations table and taken under
 * the same per-operation lock as the request: past its commit point it is finished (legs
 * captured, operation closed), short of it compensated (holds released, legs asked about by key
 * and voided). Afterwards every order is complete with its legs captured, or absent with
 * nothing held or authorised.
 */
export async function reconcile(ctx: OrdersContext, now: number, opts: { minAgeMs?: number; owner?: string } = {}): Promise<ReconcileReport> {
  const report: ReconcileReport = { finished: [], compensated: [], failed: [], raised: [] };
  const { raised, counting } = await failureIds(ctx.store);
  // A dead process's operations are taken over at once: nobody is still running them.
  const { dead, alive } = await instancesByLife(ctx.store);
  for (const row of await ctx.operations.open(now - (opts.minAgeMs ?? 0), opts.owner, dead)) {
    // Raised to staff: left alone until they resolve it (reconcile-failed resolve).
    if (raised.has(row.operationId)) continue;
    // Another live process's operation is its own until LIVE_OWNER_GRACE_MS: the per-operation lock
    // keeps two drivers apart only inside one process.
    const owner = row.lockOwner;
    if (owner !== undefined && owner !== ctx.instanceId && alive.has(owner) && row.updatedAt > now - Math.max(opts.minAgeMs ?? 0, LIVE_OWNER_GRACE_MS)) continue;
    try {
      await ctx.operationLock.run(row.operationId, async () => {
        const op = await ctx.operations.load<unknown>(row.operationId);
        if (!op || op.status !== "running") return;
        const recovery = RECOVERIES[op.kind];
        if (!recovery) throw new Error(`No recovery for operations of kind ${op.kind}.`);
        report[await recovery(ctx, op)].push(op.operationId);
      });
      if (counting.has(row.operationId)) await clearFailure(ctx.store, row.operationId);
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      report.failed.push({ sagaId: row.operationId, error });
      if (await recordFailure(ctx.store, row, error, now)) report.raised.push(row.operationId);
    }
  }
  return report;
}
