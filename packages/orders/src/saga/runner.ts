import { isGatewayError } from "@ndc/errors";
import { isTransientStoreFailure } from "@ndc/store";
import type { OrdersContext } from "../context";
import type { OperationRow } from "../operation/store";
import type { Order } from "../state";
import { unseenOperation } from "../idempotency/idempotency";
import { crashPoint, pausePoint } from "./crash-point";
import type { Saga, SagaKey } from "./declaration";
import { openingChecks } from "./opening";

/**
 * Runs a declared saga (declaration.ts) under its operation's lock: the opening checks, then
 * each step in order (a retry of a row short of its commit resumes after the phase the row
 * records), its crash point after it. A step failing short of the commit has the compensations
 * of the steps before it run, newest first, and the refusal is the answer; a commit whose answer
 * was lost is asked of the order. Past the commit the saga only goes forward: the steps after it,
 * then its close.
 */
export function runSaga<I, P, R extends { op: OperationRow<P> }>(ctx: OrdersContext, saga: Saga<I, P, R>, input: I): Promise<Order> {
  const key = saga.key(input);
  return ctx.operationLock.run(key.operationId, () =>
    runSteps(ctx, saga, input, key).catch((e: unknown) => {
      // Given up part-way by a moment of outage: this process drives it no more, so its claim on
      // the row is released (in the background: the store is likely still out of reach) and a
      // retry on any process resumes it, instead of waiting for the reconciler's grace for live
      // owners (decision 0040, "abandoned by its own process").
      if (isTransientStoreFailure(e)) ctx.releases.release(key.operationId, ctx.clock.now());
      throw e;
    }),
  );
}

/** The saga's opening checks and steps, under its operation's lock. */
async function runSteps<I, P, R extends { op: OperationRow<P> }>(ctx: OrdersContext, saga: Saga<I, P, R>, input: I, key: SagaKey): Promise<Order> {
  // Not read again when this request's idempotency read found no row a moment ago under this lock.
  const row = unseenOperation(key.operationId) ? undefined : await ctx.operations.load<P>(key.operationId);
  const seen = row && saga.opening.ignores?.(row) ? undefined : row;
  const answered = await openingChecks(ctx, saga, input, key, seen);
  if (answered) return answered;
  const run = await saga.start(ctx, input, key, seen);
  // A row short of its commit resumes after the phase it records (a compensated one runs afresh).
  const resumedAt = seen?.status === "running" ? saga.steps.findIndex((s) => s.phase === seen.phase) : -1;
  let committed = false;
  for (const [i, step] of saga.steps.entries()) {
    if ((i <= resumedAt && !step.reopens) || step.skip?.(run)) continue;
    try {
      await step.invoke(ctx, run);
    } catch (e) {
      if (committed) throw e;
      // A commit whose answer was lost may still have happened: the order says which.
      const happened = step.commit && saga.committed ? await saga.committed(ctx, run.op) : false;
      if (!happened) {
        await compensate(ctx, saga, run, i, codeOf(e));
        throw e;
      }
    }
    if (step.commit) {
      committed = true;
      run.op = { ...run.op, phase: step.phase ?? run.op.phase };
    }
    if (step.crashAfter) {
      crashPoint(step.crashAfter);
      const paused = pausePoint(step.crashAfter);
      if (paused) await paused;
    }
  }
  return saga.finish(ctx, run.op, run);
}

/** The compensations of the steps before `failed`, newest first. */
async function compensate<I, P, R extends { op: OperationRow<P> }>(ctx: OrdersContext, saga: Saga<I, P, R>, run: R, failed: number, errorCode: string): Promise<void> {
  for (const step of saga.steps.slice(0, failed).reverse()) await step.compensate?.(ctx, run, errorCode);
}

export function codeOf(e: unknown): string {
  return isGatewayError(e) ? e.code : "internal_error";
}
