import { askTogether, type JointAsk } from "@ndc/actors";
import type { LegRequest, PlannedLeg, SaleAuthorisation } from "@ndc/payments";
import { refuseCardData, validateLegs } from "@ndc/payments";
import type { OrdersContext } from "../context";
import { checkLegsPayTotal } from "../create/rules";
import { ids } from "../ids";
import { writeOpen, writePhase, type OperationRow } from "../operation/store";
import type { StoreDb } from "@ndc/store";
import { closeCaptures } from "../saga/close";
import type { Saga } from "../saga/declaration";
import { runSaga } from "../saga/runner";
import { finishCommitted } from "../saga/finish";
import { assertOwner, notFound, type Order, type OrderLegRef, type Seller } from "../state";
import { refuseUnlessPayable } from "../actor/refusals";
import { orderAsk } from "../actor/joint";

export interface RetryPlan {
  changeRef: string;
  /** The run of this attempt (absent: 1): a compensated attempt asked again runs afresh under new keys. */
  attempt?: number;
}

type RetryOperation = OperationRow<RetryPlan>;

/**
 * The seller pays a held order (OrderChangeRQ, spec 3 and 4.7), in the atomic phases of an
 * OrderCreate (create/saga.ts, issue 8 §1), each phase ONE write recording its recovery point
 * with its effects, the PSP called between phases under keys written before the call:
 *   1. open: the operation row (phase `open`) and the planned card legs (`authorising`, keyed);
 *      -> the PSP authorises each leg under its key;
 *   2. commit: the order records the legs and is booked with its holds confirmed, the seat and
 *      partner confirmations, the legs' answers, phase `committed`. A decline instead: the order
 *      records it (still held, time limit unchanged), the legs' answers, `done`;
 *      -> the PSP captures each leg under `<operation>/capture/<leg>`;
 *   3. close: the captures on the legs and the order, `done`.
 * `key` identifies the attempt (CorrelationID/TrxID of the OrderChangeRQ): the same key resumes
 * it (a compensated one runs afresh under new payment keys); after a crash the reconciler compensates an operation short of its commit (its legs asked
 * about by key and voided) and closes one past it, with the same code as the request.
 */
/** `alsoInCommit`: a write of the caller's that commits with the payment's answer or not at all (a signed request's evidence). */
export async function retryPayment(ctx: OrdersContext, orderId: string, seller: Seller, legs: LegRequest[], key: string, alsoInCommit?: (tx: StoreDb) => Promise<unknown>): Promise<Order> {
  refuseCardData(legs, "PaymentFunctions");
  validateLegs(legs);
  const order = assertOwner(await ctx.orders.ask(orderId, { op: "get" }), seller);
  return runSaga(ctx, retrySaga, { order, legs, key, ...(alsoInCommit ? { alsoInCommit } : {}) });
}

interface RetryInput {
  /** The order as the seller's request found it (owned, before the lock). */
  order: Order;
  legs: LegRequest[];
  key: string;
  alsoInCommit?: (tx: StoreDb) => Promise<unknown>;
}

interface RetryRun {
  op: RetryOperation;
  input: RetryInput;
  /** The row a retry of the same key found: the open write moves it on. */
  seen: RetryOperation | undefined;
  planned: PlannedLeg[];
  auth?: SaleAuthorisation;
  /** The order as the commit left it (booked, or still held with the decline). */
  after?: Order;
}

export const retrySaga: Saga<RetryInput, RetryPlan, RetryRun> = {
  kind: "payment_retry",
  key: (input) => ({ operationId: ids.retrySaga(input.order.orderId, input.key) }),
  opening: { heldElsewhereFirst: true, compensatedRunsAgain: true, asksOrder: true },
  start: async (ctx, input, { operationId }, seen) => {
    const { order, legs } = input;
    if (seen?.status !== "running") {
      refuseUnlessPayable(order, ctx.clock.now());
      checkLegsPayTotal(legs, order.currency, order.totalMinor);
    }
    // A compensated attempt left nothing behind: asked again, it runs afresh as its next run, under new keys.
    const attempt = !seen ? 1 : seen.status === "compensated" ? attemptOf(seen) + 1 : attemptOf(seen);
    const now = ctx.clock.now();
    const op: RetryOperation = {
      operationId, kind: "payment_retry", fingerprint: "", orderId: order.orderId, owner: order.owner,
      phase: "open", status: "running", plan: { changeRef: ids.changeRef("paymentRetry", operationId), attempt }, lockOwner: ctx.instanceId, createdAt: seen?.createdAt ?? now, updatedAt: now,
    };
    return { op, input, seen, planned: ctx.payments.sale.plan(legs, `${runOf(op)}/authorise`) };
  },
  steps: [
    {
      name: "open",
      phase: "open",
      reopens: true,
      invoke: async (ctx, { op, seen, planned }) => {
        await ctx.store.write(async (tx) => {
          await writeOpen(tx, op, seen, ctx.instanceId, op.updatedAt);
          await ctx.payments.sale.writePlanned(tx, op.orderId, op.plan.changeRef, planned, op.updatedAt);
        });
      },
      // Short of its commit point a retry only voids its own legs: the held order keeps its holds.
      compensate: (ctx, run, errorCode) => compensateRetry(ctx, run.op, errorCode),
      crashAfter: "after_holds",
    },
    {
      name: "authorise",
      invoke: async (ctx, run) => {
        run.auth = await ctx.payments.sale.authorise(run.op.orderId, run.op.plan.changeRef, run.planned, `${runOf(run.op)}/authorise`, ctx.clock.now());
      },
      crashAfter: "after_authorise",
    },
    {
      name: "commit",
      phase: "committed",
      commit: true,
      // Refused (the time limit passed meanwhile, the order was cancelled) or lost: committed or not, the store says (`committed`).
      invoke: async (ctx, run) => {
        run.after = await commitRetry(ctx, run.op, run.input.order, run.auth!, run.input.alsoInCommit);
      },
      crashAfter: "after_commit",
    },
  ],
  committed: async (ctx, op) => retryCommitted(await ctx.orders.ask(op.orderId, { op: "get" }), op.plan),
  // The request's own commit: a decline is answered as the held order; a booked one is closed.
  finish: (ctx, op, run) => (run?.after ? (run.after.state === "booked" ? closeRetry(ctx, op, run.after) : Promise.resolve(run.after)) : finishRetry(ctx, op)),
  compensate: (ctx, op, errorCode) => compensateRetry(ctx, op, errorCode),
};

/** Phase 2, one write: the order's answer to the payment (booked with its holds confirmed, or declined), the legs' answers, the phase. */
async function commitRetry(ctx: OrdersContext, op: RetryOperation, order: Order, auth: SaleAuthorisation, alsoInCommit?: (tx: StoreDb) => Promise<unknown>): Promise<Order> {
  const { changeRef } = op.plan;
  const now = ctx.clock.now();
  const r = auth.result;
  if (r.status === "declined") {
    const refs: OrderLegRef[] = [
      { legId: r.declined.legId, kind: r.declined.kind, amountMinor: r.declined.requested, state: "declined", changeRef },
      ...r.voided.map((l) => ({ legId: l.legId, kind: l.kind, amountMinor: l.authorised, state: "voided" as const, changeRef })),
    ];
    const [after] = await askTogether(ctx.store, ctx.clock, [orderAsk(ctx, op.orderId, { op: "markPaymentDeclined", legs: refs, code: r.code })], async (tx) => {
      await ctx.payments.sale.record(tx, op.orderId, auth, now);
      await writePhase(tx, op.operationId, "done", now, { status: "done" });
      await alsoInCommit?.(tx);
    });
    return after as Order;
  }
  const confirms: JointAsk[] = order.inventoryConfirmed
    ? []
    : [
        ...order.seatHolds.map((h) => ctx.inventory.joint.confirmSeats(h.flightKey, h.holdId)),
        ...order.partnerHolds.map((p) => ctx.inventory.joint.confirmPartnerProduct(p.productCode, p.holdId)),
      ];
  const paying = r.legs.map((l) => ({ legId: l.legId, kind: l.kind, amountMinor: l.authorised, state: "authorised" as const, changeRef }));
  const [after] = await askTogether(ctx.store, ctx.clock, [orderAsk(ctx, op.orderId, { op: "recordPaymentAuthorised", legs: paying, confirmInventory: true }), ...confirms], async (tx) => {
    await ctx.payments.sale.record(tx, op.orderId, auth, now);
    await writePhase(tx, op.operationId, "committed", now, { status: "running" });
    await alsoInCommit?.(tx);
  });
  return after as Order;
}

/** Phase 3: captures at the PSP under `<run>/capture/<leg>`, then one write records them and closes (saga/close.ts). */
function closeRetry(ctx: OrdersContext, op: RetryOperation, order: Order): Promise<Order> {
  return closeCaptures(ctx, op.operationId, order, op.plan.changeRef, retryCaptureKey(op));
}

/**
 * Past the commit point (the request resumed, or the reconciler): a booked order is closed
 * (holds confirmed if an older row left them, legs captured); a held or cancelled one keeps no
 * leg of the attempt authorised. Idempotent.
 */
async function finishRetry(ctx: OrdersContext, op: RetryOperation): Promise<Order> {
  const order = await ctx.orders.ask(op.orderId, { op: "get" });
  if (!order) throw notFound();
  if (op.status === "done" && !order.legs.some((l) => l.changeRef === op.plan.changeRef && l.state === "authorised")) return order;
  if (order.state === "booked") {
    // An attempt committed before issue 8's phases (its holds confirmed apart): the old way.
    if (!order.inventoryConfirmed) return finishCommitted(ctx, op.orderId, op.operationId, op.plan.changeRef).then((o) => markDone(ctx, op).then(() => o));
    return closeRetry(ctx, op, order);
  }
  await ctx.payments.voidAll(op.orderId, `${op.operationId}/void`, { changeRef: op.plan.changeRef });
  await markDone(ctx, op);
  return order;
}

async function markDone(ctx: OrdersContext, op: RetryOperation): Promise<void> {
  await ctx.store.write((tx) => writePhase(tx, op.operationId, "done", ctx.clock.now(), { status: "done" }));
}

/** Short of its commit point a retry only voids its own legs (asked about by key first): the held order keeps its holds. */
async function compensateRetry(ctx: OrdersContext, saga: RetryOperation, errorCode: string): Promise<void> {
  await ctx.payments.voidAll(saga.orderId, `${saga.operationId}/compensate`, { changeRef: saga.plan.changeRef });
  await ctx.store.write((tx) => writePhase(tx, saga.operationId, saga.phase, ctx.clock.now(), { status: "compensated", errorCode }));
}

/** Whether the order recorded the retry's legs (its commit point): authorised or captured, or its decline. */
export function retryCommitted(order: Order | null, plan: RetryPlan): boolean {
  return !!order && order.legs.some((l) => l.changeRef === plan.changeRef && (l.state === "authorised" || l.state === "captured"));
}

const attemptOf = (op: RetryOperation) => op.plan.attempt ?? 1;
/** The id the run's payment keys derive from (the first run's are the operation's own, as before runs existed). */
/** The key a retry's legs are captured under; staff capture under it too (reconcile/settle.ts). */
export const retryCaptureKey = (op: RetryOperation) => `${runOf(op)}/capture`;
const runOf = (op: RetryOperation) => (attemptOf(op) === 1 ? op.operationId : `${op.operationId}/run/${attemptOf(op)}`);
