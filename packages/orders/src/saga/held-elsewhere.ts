import { GatewayError } from "@ndc/errors";
import type { OrdersContext } from "../context";
import { writeClaim, type OperationRow } from "../operation/store";

/**
 * A saga resumes an operation row only when it is its own. A row still `running` under another
 * process's lock is that process's live work (a second gateway on the same store), or a dead
 * process's that the reconciler settles: either way not ours to take over. The request layer's
 * begin() refuses such a row too, but only if it was already there when begin() read: two
 * gateways sent the same request at once can both pass begin() before either opens the row, and
 * the later one then finds the earlier's row here. Resuming it would run the other's phases a
 * second time, and on a refusal compensate them, freeing a seat the other had just sold.
 */
export function refuseIfHeldElsewhere(ctx: OrdersContext, op: OperationRow<unknown> | undefined): void {
  if (op?.status === "running" && op.lockOwner !== undefined && op.lockOwner !== ctx.instanceId) {
    throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
  }
}

/**
 * A row its process gave up and released (running, no owner: liveness/release.ts) is resumed by
 * whoever retries first; it is claimed for this process before anything is done on it, since
 * the steps would otherwise run, or the failure of a late one compensate, the run another
 * process's retry is resuming at the same moment. Lost: request_in_progress, nothing done.
 */
export async function claimIfReleased(ctx: OrdersContext, op: OperationRow<unknown>): Promise<void> {
  if (op.status !== "running" || op.lockOwner !== undefined) return;
  const claimed = await ctx.store.write((tx) => writeClaim(tx, op.operationId, ctx.instanceId, op.updatedAt, ctx.clock.now()));
  if (!claimed) throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
}
