import { compensateCreate, finish } from "../create/saga";
import type { CreatePlan } from "../create/plan";
import type { OrdersContext } from "../context";
import { compensateRetry, retryCommitted, type RetryPlan } from "../payment/retry";
import { finishCommitted } from "../saga/finish";
import type { SagaRow } from "../saga/store";

export interface ReconcileReport {
  finished: string[];
  compensated: string[];
  /** Sagas whose step failed again; left running for the next pass (and staff: reconcile_failed). */
  failed: { sagaId: string; error: string }[];
}

/**
 * Every saga not done whose last recovery point is at least `minAgeMs` old (so one a live
 * request is still running is left alone): past its commit point it is finished (holds
 * confirmed, legs captured), short of it compensated (holds released, legs voided). Afterwards
 * every order is complete with its legs captured, or absent with nothing held or authorised.
 */
export async function reconcile(ctx: OrdersContext, now: number, opts: { minAgeMs?: number } = {}): Promise<ReconcileReport> {
  const report: ReconcileReport = { finished: [], compensated: [], failed: [] };
  for (const row of await ctx.sagas.open(now - (opts.minAgeMs ?? 0))) {
    try {
      await ctx.sagaLock.run(row.sagaId, async () => {
        const saga = await ctx.sagas.load<unknown>(row.sagaId);
        if (!saga || saga.status !== "running") return;
        const order = await ctx.orders.ask(saga.orderId, { op: "get" });
        if (saga.kind === "order_create") {
          const s = saga as SagaRow<CreatePlan>;
          if (order) {
            await finish(ctx, s);
            report.finished.push(s.sagaId);
          } else {
            await compensateCreate(ctx, s, "reconciled");
            report.compensated.push(s.sagaId);
          }
          return;
        }
        const s = saga as SagaRow<RetryPlan>;
        if (retryCommitted(order, s.plan)) {
          await finishCommitted(ctx, s.orderId, s.sagaId, s.plan.changeRef);
          await ctx.sagas.mark(s, "done", ctx.clock.now(), { status: "done" });
          report.finished.push(s.sagaId);
        } else {
          await compensateRetry(ctx, s, "reconciled");
          report.compensated.push(s.sagaId);
        }
      });
    } catch (e) {
      report.failed.push({ sagaId: row.sagaId, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return report;
}
