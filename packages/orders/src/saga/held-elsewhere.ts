import { GatewayError } from "@ndc/errors";
import type { OrdersContext } from "../context";
import type { OperationRow } from "../operation/store";

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
