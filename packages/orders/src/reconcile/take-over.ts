import type { OrdersContext } from "../context";
import { isDeadInstance } from "../liveness/instances";
import { RECOVERIES } from "./recoveries";

/**
 * A request found its operation running under another process's lock. If that process is known
 * dead (liveness/instances.ts), nobody will finish the work but the reconciler, later: the request
 * settles it now, as the reconciler would (finished past its commit point, compensated short of
 * it), and is then answered from the settled row. Returns whether it did; false leaves the
 * caller's answer request_in_progress (a live owner, or one not known dead).
 */
export async function takeOverIfDead(ctx: OrdersContext, operationId: string): Promise<boolean> {
  const seen = await ctx.operations.load<unknown>(operationId);
  if (!seen || seen.status !== "running" || !seen.lockOwner || seen.lockOwner === ctx.instanceId) return false;
  if (!(await isDeadInstance(ctx.store, seen.lockOwner))) return false;
  const recovery = RECOVERIES[seen.kind];
  if (!recovery) return false;
  try {
    // Reentrant: the request already holds the operation's lock.
    await ctx.operationLock.run(operationId, async () => {
      const op = await ctx.operations.load<unknown>(operationId);
      if (op?.status === "running") await recovery(ctx, op);
    });
    return true;
  } catch {
    // Not settled this time (the PSP silent...): the reconciler keeps trying; the caller retries.
    return false;
  }
}
