import { askTogether } from "@ndc/actors";
import { isGatewayError } from "@ndc/errors";
import { isConstraintViolation, tables } from "@ndc/store";
import { and, eq, lte } from "drizzle-orm";
import type { OrdersContext } from "../context";
import { ids } from "../ids";
import { writeOpen } from "../operation/store";
import { closeFlightChange, finishFlightChange, planChangeRefund, type FlightCloseOperation } from "../servicing/flight/refund";
import type { Saga } from "../saga/declaration";
import { runSaga } from "../saga/runner";
import type { Order } from "../state";
import { orderAsk } from "../actor/joint";

/** At most this many orders a run; the next run finds the rest. */
const BATCH = 500;

/**
 * The retained value's lapse (cancel/retained.ts): booked orders whose value kept by an items
 * cancellation with RespendInd was not spent by its lapse (the order's first departure) have it
 * refunded to the captured legs, newest first, in the phases of a cheaper flight change's refund
 * (servicing/flight/refund.ts), on an operation of its own (kind `order_retained_lapse`):
 *   1. commit, ONE write: the order's `retained_lapsed` (the value gone from it) and the
 *      operation row, its plan naming each leg's share;
 *      -> the PSP pays each card share back under `<op>/refund/<legId>`;
 *   2. close, ONE write: the shares on the legs and in the ledger, the order's `refunded` under
 *      the lapse's change, `done`.
 * Past the commit a PSP that does not answer is the reconciler's (then staff's), as for every
 * refund. The operation id derives from the retention it ends, so a repeat of the sweep, or two
 * gateways sweeping at once, commit it once. Candidates are booked orders whose travel has begun
 * by date (the first departure is on or before today); `owner`: only that seller client's (its
 * sandbox clock's run). Returns the ids of the orders whose value lapsed.
 */
export async function lapseRetained(ctx: OrdersContext, now: number, owner?: string): Promise<string[]> {
  const today = new Date(now).toISOString().slice(0, 10);
  const O = tables.orders;
  const due = await ctx.store.db
    .select({ orderId: O.orderId })
    .from(O)
    .where(and(eq(O.state, "booked"), lte(O.travelFrom, today), owner === undefined ? undefined : eq(O.ownerClientId, owner)))
    .limit(BATCH);
  const lapsed: string[] = [];
  for (const { orderId } of due) {
    const order = await ctx.orders.ask(orderId, { op: "get" });
    if (!order?.retained?.amountMinor || order.state !== "booked" || now < order.retained.lapsesAt) continue;
    await lapseOne(ctx, order, now);
    lapsed.push(orderId);
  }
  return lapsed;
}

async function lapseOne(ctx: OrdersContext, order: Order, now: number): Promise<void> {
  try {
    await runSaga(ctx, lapseSaga, { order, now });
  } catch (e) {
    if (!(e instanceof LapseNotCommitted)) throw e;
  }
}

/** Another gateway on this store committed the same lapse first (its close is its own), or a change spent some of the value meanwhile: the next run judges the order again. */
class LapseNotCommitted extends Error {}

interface LapseRun {
  op: FlightCloseOperation;
  amountMinor: number;
}

/** The lapse as a saga on the runner: one commit step (nothing is taken before it), the refund as its close (the flight change's). */
export const lapseSaga: Saga<{ order: Order; now: number }, FlightCloseOperation["plan"], LapseRun> = {
  kind: "order_retained_lapse",
  key: ({ order }) => {
    const retention = (order.itemCancellations ?? []).filter((c) => (c.retainedMinor ?? 0) > 0).at(-1)?.changeRef ?? String(order.version);
    return { operationId: ids.retainedLapseSaga(order.orderId, retention) };
  },
  opening: { resumesOthers: true },
  start: async (ctx, { order, now }, { operationId }) => {
    const changeRef = ids.changeRef("retainedLapse", operationId);
    const amountMinor = order.retained!.amountMinor;
    const refund = await planChangeRefund(ctx, order.orderId, order.currency, amountMinor, operationId);
    const op: FlightCloseOperation = {
      operationId, kind: "order_retained_lapse", fingerprint: "", orderId: order.orderId, owner: order.owner, phase: "committed", status: "running",
      plan: { changeRef, legCount: 0, refund }, createdAt: now, updatedAt: now,
    };
    return { op, amountMinor };
  },
  steps: [
    {
      name: "commit",
      phase: "committed",
      commit: true,
      invoke: async (ctx, { op, amountMinor }) => {
        const now = op.createdAt;
        try {
          await askTogether(ctx.store, ctx.clock, [orderAsk(ctx, op.orderId, { op: "lapseRetained", changeRef: op.plan.changeRef, amountMinor, now })], (tx) => writeOpen(tx, op, undefined, ctx.instanceId, now));
        } catch (e) {
          if (isConstraintViolation(e) || isGatewayError(e)) throw new LapseNotCommitted();
          throw e;
        }
      },
    },
  ],
  // A done lapse is left as it is; a committed one has its refund paid (a PSP that does not answer is the reconciler's).
  finish: (ctx, op) => closeFlightChange(ctx, op),
  forward: (ctx, op) => finishFlightChange(ctx, op),
};
