import { askTogether, type JointAsk } from "@ndc/actors";
import { GatewayError } from "@ndc/errors";
import { isConstraintViolation, type StoreDb } from "@ndc/store";
import type { OrdersContext } from "../context";

/**
 * A step's one write: the actors' decisions and the rows of the recovery point in one
 * transaction. A constraint violation the actors' retries did not clear means another gateway
 * on this store wrote the same operation row first: request_in_progress. `refuse.otherwise` names
 * the refusal when no other writer moved the row after all (none there, or still as `seenAt`, the
 * row this write reopens): the store keeps refusing a seat another channel took in the same instant.
 */
export async function phaseWrite(
  ctx: OrdersContext,
  asks: readonly JointAsk<any>[],
  write: (tx: StoreDb) => Promise<void>,
  refuse?: { operationId: string; seenAt?: number; otherwise: () => Error },
): Promise<unknown[]> {
  try {
    return await askTogether(ctx.store, ctx.clock, asks, write);
  } catch (e) {
    if (!isConstraintViolation(e)) throw e;
    if (refuse) {
      const other = await ctx.operations.load(refuse.operationId);
      if (!other || other.updatedAt === refuse.seenAt) throw refuse.otherwise();
    }
    throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
  }
}
