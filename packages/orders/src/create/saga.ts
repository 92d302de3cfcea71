import { askTogether, type JointAsk } from "@ndc/actors";
import { GatewayError } from "@ndc/errors";
import type { PlannedLeg, SaleAuthorisation } from "@ndc/payments";
import type { StoreDb } from "@ndc/store";
import { phaseWrite } from "../saga/phase-write";
import type { OrdersContext } from "../context";
import { fingerprintOf } from "../fingerprint";
import { currentRequest, notTheKeysAnswer } from "../idempotency/idempotency";
import { ids } from "../ids";
import { writeOpen, writePhase, type OperationRow } from "../operation/store";
import { closeCaptures } from "../saga/close";
import type { Saga } from "../saga/declaration";
import { codeOf, runSaga } from "../saga/runner";
import { confirmHolds, releaseHolds } from "../saga/holds";
import { notFound, type Order } from "../state";
import { buildOrder, commissionOf } from "./build-order";
import type { OrderCreateInput } from "./input";
import { SALE_CHANGE_REF, type CreatePlan } from "./plan";
import { resolveSelections } from "./resolve";
import { checkRequest, checkRules } from "./rules";
import { orderAsk } from "../actor/joint";

type CreateOperation = OperationRow<CreatePlan>;

/**
 * OrderCreate as a saga in atomic phases (DESIGN 4, issue 8 §1), each phase ONE write that
 * records its recovery point with the effects it names, the PSP called between phases under
 * keys written before the call:
 *   1. open: the seat and partner holds, the operation row (phase `open`, its plan naming every
 *      hold and leg) and the planned card legs (`authorising`, each with its key);
 *      -> the PSP authorises each leg under its key;
 *   2. commit: the order (with its documents and, when booked, its holds confirmed), the legs'
 *      answers and the stock confirmations, phase `committed` (`done` for a held order);
 *      -> the PSP captures each leg under `<run>/capture/<leg>`;
 *   3. close: the captures on the legs and the order, phase `done`.
 * The request layer stores the answer on the same row (a 4th write). After a crash the
 * reconciler compensates an operation still `open` (holds released, legs asked about by key and
 * voided) and closes one `committed`. The operation id comes from (seller client,
 * CorrelationID, TrxID), and every hold, leg and the order id from it and its run, so running it
 * again resumes it instead of starting a second order. A compensated operation left nothing
 * behind; reached again (the request layer had no answer to replay) it runs afresh as its next
 * run, under new hold ids and payment keys, for a new order id.
 */
export function createOrder(ctx: OrdersContext, input: OrderCreateInput): Promise<Order> {
  const docs = checkRequest(input);
  return runSaga(ctx, createSaga, { input, docs });
}

interface CreateInput {
  input: OrderCreateInput;
  docs: ReturnType<typeof checkRequest>;
}

interface CreateRun {
  op: CreateOperation;
  /** The row found (a retry of a running run reopens it; a compensated one leaves its place to the next run). */
  seen: CreateOperation | undefined;
  asked: CreateInput;
  resolved: Awaited<ReturnType<typeof resolveSelections>>;
  planned: PlannedLeg[];
  auth?: SaleAuthorisation;
  built?: ReturnType<typeof buildOrder>;
  /** The order as the commit wrote it. */
  order?: Order;
}

export const createSaga: Saga<CreateInput, CreatePlan, CreateRun> = {
  kind: "order_create",
  key: ({ input }) => {
    // What the seller asked, without the agreement the gateway looked up for it: an operator who
    // changes the agency's agreement between a crash and the retry has not made it another request.
    const { commissionAgreement: _agreement, alsoInCommit: _inCommit, ...asked } = input;
    return { operationId: ids.createSaga(input.seller.clientId, input.correlationId, input.trxId), fingerprint: fingerprintOf(asked) };
  },
  opening: {
    // A refusal's stored answer is no run: the request runs.
    ignores: (seen) => seen.status === "answered",
    heldElsewhereFirst: true,
    fingerprintOf: (seen) => seen.plan.fingerprint,
    conflict: (seen) => {
      if (!seen.fingerprint) notTheKeysAnswer();
      return new GatewayError("idempotency_conflict");
    },
    compensatedRunsAgain: true,
    asksOrder: true,
  },
  start: async (ctx, asked, { operationId, fingerprint }, seen) => {
    const { input } = asked;
    const now = ctx.clock.now();
    // A compensated operation left nothing behind: it runs afresh as its next run (new ids).
    const attempt = !seen ? 1 : seen.status === "compensated" ? attemptOf(seen) + 1 : attemptOf(seen);
    const run = ids.createAttempt(operationId, attempt);
    const orderId = attempt === 1 ? ids.order(operationId) : ids.order(run);
    const planned = input.payment?.length ? ctx.payments.sale.plan(input.payment, `${run}/authorise`) : [];
    return compensatingSeen(ctx, seen, async () => {
      const resolved = await resolveSelections(ctx.offers, input.seller, ctx.ownerCode, input.selections, orderId);
      checkRules(input, resolved);
      const plan: CreatePlan = {
        ...(seen?.status === "running" ? seen.plan : freshPlan(ctx, input, fingerprint!, attempt, now)),
        seatHolds: resolved.seats.map((s) => ({ ...s, holdId: ids.seatHold(run, s.flightKey) })),
        partnerHolds: resolved.partnerUnits.map((code) => ({ productCode: code, holdId: ids.partnerHold(run, code) })),
      };
      const request = currentRequest();
      const op: CreateOperation = {
        operationId,
        kind: "order_create",
        request: { clientId: input.seller.clientId, correlationId: input.correlationId, trxId: input.trxId },
        fingerprint: request && ids.createSaga(request.key.clientId, request.key.correlationId, request.key.trxId) === operationId ? request.fingerprint : "",
        orderId,
        owner: input.seller,
        phase: "open",
        status: "running",
        plan,
        lockOwner: ctx.instanceId,
        createdAt: seen?.createdAt ?? now,
        updatedAt: now,
      };
      return { op, seen, asked, resolved, planned };
    });
  },
  steps: [
    {
      name: "open",
      phase: "open",
      reopens: true,
      invoke: (ctx, run) => compensatingSeen(ctx, run.seen, () => openPhase(ctx, run.op, run.seen, run.planned, run.op.updatedAt)),
      compensate: (ctx, run, errorCode) => compensateCreate(ctx, run.op, errorCode),
      crashAfter: "after_holds",
    },
    {
      name: "authorise",
      skip: (run) => !run.planned.length,
      invoke: async (ctx, run) => {
        run.auth = await ctx.payments.sale.authorise(run.op.orderId, SALE_CHANGE_REF, run.planned, `${runOf(run.op)}/authorise`, ctx.clock.now());
      },
      crashAfter: "after_authorise",
    },
    {
      name: "build",
      invoke: async (ctx, run) => {
        const { input, docs } = run.asked;
        const commission = input.commissionAgreement ? commissionOf(input.commissionAgreement, run.resolved) : undefined;
        run.built = buildOrder(run.op.operationId, run.op.orderId, input, run.resolved, run.op.plan, docs, run.auth?.result, commission);
        // The holds lapse at the payment time limit: an order committed past it would claim seats
        // that may be someone else's by now. Refused and compensated instead.
        if (ctx.clock.now() >= run.op.plan.paymentTimeLimit) throw new GatewayError("seat_hold_expired", { detail: `Order ${run.op.orderId}.` });
      },
    },
    {
      name: "commit",
      phase: "committed",
      commit: true,
      invoke: async (ctx, run) => {
        run.order = await commitPhase(ctx, run.op, run.built!, run.auth, run.asked.input.alsoInCommit);
      },
      crashAfter: "after_commit",
    },
  ],
  committed: (ctx, op) => orderExists(ctx, op.orderId),
  // The request's own commit: a held order is answered as it is; a booked one is closed.
  finish: (ctx, op, run) => (run?.order ? (run.order.state === "booked" ? closePhase(ctx, op, run.order) : Promise.resolve(run.order)) : finish(ctx, op)),
  compensate: (ctx, op, errorCode) => compensateCreate(ctx, op, errorCode),
};

/** Nothing taken by this run yet; an operation reopened from `running` (a retry of its own run) is compensated when it fails here. */
async function compensatingSeen<T>(ctx: OrdersContext, seen: CreateOperation | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (seen?.status === "running") await compensateCreate(ctx, seen, codeOf(e));
    throw e;
  }
}

function freshPlan(ctx: OrdersContext, input: OrderCreateInput, fingerprint: string, attempt: number, now: number): CreatePlan {
  return {
    fingerprint,
    request: { correlationId: input.correlationId, trxId: input.trxId },
    attempt,
    createdAt: now,
    paymentTimeLimit: now + ctx.paymentTimeLimitMs,
    seatHolds: [],
    partnerHolds: [],
    legCount: input.payment?.length ?? 0,
  };
}

/**
 * Phase 1, one write: the holds (each actor's events), the operation row and the planned card
 * legs. A store constraint (another process took a seat, or opened this operation, behind
 * these actors' backs) refuses all of it; the actors reload and it is decided again
 * (askTogether), and a refusal that stays is answered as what it is.
 */
async function openPhase(ctx: OrdersContext, next: CreateOperation, seen: CreateOperation | undefined, planned: readonly PlannedLeg[], now: number): Promise<void> {
  const holds: JointAsk[] = [
    ...next.plan.seatHolds.map((h) => ctx.inventory.joint.holdSeats({ flightKey: h.flightKey, seatIds: h.seatIds, holder: next.orderId, channel: "ndc", expiresAt: next.plan.paymentTimeLimit, holdId: h.holdId })),
    ...next.plan.partnerHolds.map((p) => ctx.inventory.joint.holdPartnerProduct({ productCode: p.productCode, orderId: next.orderId, channel: "ndc", expiresAt: next.plan.paymentTimeLimit, holdId: p.holdId })),
  ];
  // Refused again after the actors reloaded: the operation itself is another live request's
  // (a second gateway on this store opened it first), or the store keeps refusing a seat.
  const write = async (tx: StoreDb) => {
    await writeOpen(tx, next, seen, ctx.instanceId, now);
    // No row seen: writeOpen just inserted the operation's first row (its primary key refuses this
    // whole write otherwise), so no run of it opened before and its order (attempt 1's id) has no
    // leg: none to number after.
    await ctx.payments.sale.writePlanned(tx, next.orderId, SALE_CHANGE_REF, planned, now, { newOrder: !seen });
  };
  await phaseWrite(ctx, holds, write, { operationId: next.operationId, ...(seen ? { seenAt: seen.updatedAt } : {}), otherwise: () => new GatewayError("seat_unavailable", { detail: "(refused by the store)" }) });
}

/**
 * Phase 2, one write: the order (documents, index row; a booked order's holds confirmed with
 * it), the seat and partner confirmations, the legs' answers, and `committed` (`done` for a
 * held order: nothing is left to capture).
 */
async function commitPhase(ctx: OrdersContext, op: CreateOperation, built: ReturnType<typeof buildOrder>, auth: SaleAuthorisation | undefined, alsoInCommit?: OrderCreateInput["alsoInCommit"]): Promise<Order> {
  const booked = built.order.state === "booked";
  const confirms: JointAsk[] = booked
    ? [
        ...op.plan.seatHolds.map((h) => ctx.inventory.joint.confirmSeats(h.flightKey, h.holdId)),
        ...op.plan.partnerHolds.map((p) => ctx.inventory.joint.confirmPartnerProduct(p.productCode, p.holdId)),
      ]
    : [];
  const now = ctx.clock.now();
  const [order] = await askTogether(ctx.store, ctx.clock, [orderAsk(ctx, op.orderId, { op: "create", ...built, confirmInventory: booked }), ...confirms], async (tx) => {
    if (auth) await ctx.payments.sale.record(tx, op.orderId, auth, now);
    await writePhase(tx, op.operationId, booked ? "committed" : "done", now, { status: booked ? "running" : "done" });
    if (alsoInCommit) await alsoInCommit(tx, op.orderId);
  });
  return order as Order;
}

/**
 * Phase 3: the PSP captures each authorised leg of the sale under its key, then one write
 * records the captures on the legs and the order and closes the operation (`done`). Run again
 * after a crash it asks the PSP under the same keys, which answers the first capture again.
 */
async function closePhase(ctx: OrdersContext, op: CreateOperation, order: Order): Promise<Order> {
  return closeCaptures(ctx, op.operationId, order, SALE_CHANGE_REF, createCaptureKey(op));
}

/** The key the sale's legs are captured under (`<run>/capture/<leg>` at the PSP); staff capture under it too (reconcile/settle.ts). */
export const createCaptureKey = (op: CreateOperation) => `${runOf(op)}/capture`;

/** Past the commit point: close a booked order; a held one keeps its holds and no leg of the sale stays authorised. Also the reconciler's way forward. */
async function finish(ctx: OrdersContext, op: CreateOperation): Promise<Order> {
  let order = await ctx.orders.ask(op.orderId, { op: "get" });
  if (!order) throw notFound();
  if (op.status === "done") return order;
  if (order.state === "booked") {
    // An order committed before the holds were confirmed with it (written before issue 8's phases).
    if (!order.inventoryConfirmed) {
      await confirmHolds(ctx, order.seatHolds, order.partnerHolds);
      order = (await ctx.orders.ask(op.orderId, { op: "confirmInventory" }))!;
    }
    return closePhase(ctx, op, order);
  }
  await ctx.payments.voidAll(op.orderId, `${runOf(op)}/void`, { changeRef: SALE_CHANGE_REF });
  await ctx.store.write((tx) => writePhase(tx, op.operationId, "done", ctx.clock.now(), { status: "done" }));
  return order;
}

/** Short of the commit point: every hold planned is released and every leg voided (asked about by key first). */
async function compensateCreate(ctx: OrdersContext, op: CreateOperation, errorCode: string): Promise<void> {
  await releaseHolds(ctx, op.plan.seatHolds, op.plan.partnerHolds);
  if (op.plan.legCount > 0) await ctx.payments.voidAll(op.orderId, `${runOf(op)}/compensate`, { changeRef: SALE_CHANGE_REF });
  await ctx.store.write((tx) => writePhase(tx, op.operationId, op.phase, ctx.clock.now(), { status: "compensated", errorCode }));
}

const attemptOf = (op: CreateOperation) => op.plan.attempt ?? 1;
/** The id this run's holds, payment keys and order id derive from. */
const runOf = (op: CreateOperation) => ids.createAttempt(op.operationId, attemptOf(op));

async function orderExists(ctx: OrdersContext, orderId: string): Promise<boolean> {
  return (await ctx.orders.ask(orderId, { op: "get" })) !== null;
}
