import { compensateCreate, finish } from "../create/saga";
import type { CreatePlan } from "../create/plan";
import type { OrdersContext } from "../context";
import { retrySaga, type RetryPlan } from "../payment/retry";
import type { OperationRow } from "../operation/store";
import { addSaga } from "../servicing/add/saga";
import { flightChangeSaga } from "../servicing/flight/saga";
import { recover } from "../saga/recovery";
import { cancelSaga, type CancelOperation } from "../cancel/saga";
import { finishFlightChange, type FlightCloseOperation } from "../servicing/flight/refund";
import { clearFailure, failureIds, recordFailure } from "./failures";

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
 * live request is still running is left alone), read from the operations table and taken under
 * the same per-operation lock as the request: past its commit point it is finished (legs
 * captured, operation closed), short of it compensated (holds released, legs asked about by key
 * and voided). Afterwards every order is complete with its legs captured, or absent with
 * nothing held or authorised.
 */
export async function reconcile(ctx: OrdersContext, now: number, opts: { minAgeMs?: number; owner?: string } = {}): Promise<ReconcileReport> {
  const report: ReconcileReport = { finished: [], compensated: [], failed: [], raised: [] };
  const { raised, counting } = await failureIds(ctx.store);
  for (const row of await ctx.operations.open(now - (opts.minAgeMs ?? 0), opts.owner)) {
    // Raised to staff: left alone until they resolve it (reconcile-failed resolve).
    if (raised.has(row.operationId)) continue;
    try {
      await ctx.operationLock.run(row.operationId, async () => {
        const op = await ctx.operations.load<unknown>(row.operationId);
        if (!op || op.status !== "running") return;
        const order = await ctx.orders.ask(op.orderId, { op: "get" });
        if (op.kind === "order_cancel" || op.kind === "order_cancel_items") {
          // Nothing is taken before a cancellation's commit: a row means it is committed, and its refund is finished.
          report[await recover(ctx, cancelSaga, op as CancelOperation)].push(op.operationId);
          return;
        }
        if (op.kind === "order_retained_lapse") {
          // A retained value's lapse (cancel/retained-lapse.ts): its row is written with the commit, so it is committed; its refund is finished.
          await finishFlightChange(ctx, op as FlightCloseOperation);
          report.finished.push(op.operationId);
          return;
        }
        if (op.kind === "order_create") {
          const s = op as OperationRow<CreatePlan>;
          if (order) {
            await finish(ctx, s);
            report.finished.push(s.operationId);
          } else {
            await compensateCreate(ctx, s, "reconciled");
            report.compensated.push(s.operationId);
          }
          return;
        }
        if (op.kind === "order_add" || op.kind === "order_change_flight") {
          // Declared sagas (saga/declaration.ts): past the commit point the order recorded they are finished, short of it compensated (saga/recovery.ts).
          const saga = op.kind === "order_add" ? addSaga : flightChangeSaga;
          report[await recover(ctx, saga as typeof addSaga, op as Parameters<typeof addSaga.finish>[1])].push(op.operationId);
          return;
        }
        report[await recover(ctx, retrySaga, op as OperationRow<RetryPlan>)].push(op.operationId);
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
