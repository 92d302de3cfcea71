import { GatewayError, isGatewayError } from "@ndc/errors";
import type { AuthoriseAllResult } from "@ndc/payments";
import type { StoreDb } from "@ndc/store";
import type { OrdersContext } from "../context";
import { fingerprintOf } from "../fingerprint";
import { releaseLeftBehind, type GuardedWork, type IdempotencyKey } from "../idempotency/idempotency";
import { ids } from "../ids";
import { crashPoint } from "../saga/crash-point";
import { finishCommitted } from "../saga/finish";
import { releaseHolds, takeHolds } from "../saga/holds";
import type { SagaRow } from "../saga/store";
import type { Order } from "../state";
import { buildOrder, commissionOf } from "./build-order";
import type { OrderCreateInput } from "./input";
import { SALE_CHANGE_REF, type CreatePlan } from "./plan";
import { resolveSelections } from "./resolve";
import { checkRequest, checkRules } from "./rules";

/**
 * OrderCreate as a journaled saga (DESIGN 4): resolve offers -> rules -> hold seats and partner
 * units -> authorise the legs together -> commit the order (the commit point) -> confirm holds
 * -> capture -> done. Recovery points (issue 8, atomic phases): the saga row is first written
 * with the hold ids, before any hold is taken (`holding`); the authorisations' recovery points
 * are the ledger's own; `committed` is written by the order's commit itself. After a crash the
 * reconciler compensates a saga short of its commit and finishes one past it. The saga id comes from (seller client, CorrelationID, TrxID), and every hold, leg and the
 * order id from the saga id and its run, so running it again resumes it instead of starting a
 * second order. A compensated saga left nothing behind; reached again (the request layer had no
 * answer to replay: the first attempt died, or failed for a reason that may pass), it runs
 * afresh as its next run, under new hold ids and payment keys, for a new order id.
 */
export async function createOrder(ctx: OrdersContext, input: OrderCreateInput): Promise<Order> {
  const docs = checkRequest(input);
  const sagaId = ids.createSaga(input.seller.clientId, input.correlationId, input.trxId);
  // What the seller asked, without the agreement the gateway looked up for it: an operator who
  // changes the agency's agreement between a crash and the retry has not made it another request.
  const { commissionAgreement: _agreement, ...asked } = input;
  const fingerprint = fingerprintOf(asked);
  return ctx.sagaLock.run(sagaId, async () => {
    const now = ctx.clock.now();
    const freshPlan = (attempt: number): CreatePlan => ({
      fingerprint,
      request: { correlationId: input.correlationId, trxId: input.trxId },
      attempt,
      createdAt: now,
      paymentTimeLimit: now + ctx.paymentTimeLimitMs,
      seatHolds: [],
      partnerHolds: [],
      legCount: input.payment?.length ?? 0,
    });
    // Read first: a saga is written only once there is something to take (its first recovery
    // point carries the hold ids), so a refusal before the holds writes nothing.
    let saga = await ctx.sagas.load<CreatePlan>(sagaId);
    if (saga && saga.plan.fingerprint !== fingerprint) throw new GatewayError("idempotency_conflict");
    if (saga && saga.status !== "compensated" && (saga.status === "done" || (await orderExists(ctx, saga.orderId)))) return finish(ctx, saga);
    // A compensated saga left nothing behind: it runs afresh as its next run (new ids).
    const attempt = !saga ? 1 : saga.status === "compensated" ? attemptOf(saga) + 1 : attemptOf(saga);
    const run = ids.createAttempt(sagaId, attempt);
    const orderId = attempt === 1 ? ids.order(sagaId) : ids.order(run);

    let auth: AuthoriseAllResult | undefined;
    let built: ReturnType<typeof buildOrder>;
    let r: Awaited<ReturnType<typeof resolveSelections>>;
    try {
      r = await resolveSelections(ctx.offers, input.seller, ctx.ownerCode, input.selections, orderId);
      checkRules(input, r);
      // Holds: the ids are written down before any is taken, so a crash mid-way leaves a plan
      // naming every hold that may exist. One write opens (or reopens) the saga with them.
      const plan: CreatePlan = {
        ...(saga?.status === "running" ? saga.plan : freshPlan(attempt)),
        seatHolds: r.seats.map((s) => ({ ...s, holdId: ids.seatHold(run, s.flightKey) })),
        partnerHolds: r.partnerUnits.map((code) => ({ productCode: code, holdId: ids.partnerHold(run, code) })),
      };
      saga = await openSaga(ctx, saga, { sagaId, orderId, owner: input.seller, plan, now });
    } catch (e) {
      // Nothing taken yet; a saga reopened from `running` (a retry of its own run) compensates.
      if (saga?.status === "running") await compensateCreate(ctx, saga, codeOf(e));
      throw e;
    }

    try {
      await takeHolds(ctx, orderId, saga.plan.seatHolds, saga.plan.partnerHolds, saga.plan.paymentTimeLimit);
      crashPoint("after_holds");
      if (input.payment?.length) {
        // The ledger keeps the authorisations' own recovery points (leg `authorising`, key in
        // flight, then the outcome), so the saga writes none: its compensation voids every leg
        // the ledger holds for the order, asking the PSP about one whose answer was lost.
        // One decline voids every leg already authorised (inside authoriseAll).
        auth = await ctx.payments.authoriseAll(orderId, SALE_CHANGE_REF, input.payment, `${run}/authorise`);
        crashPoint("after_authorise");
      }
      const commission = input.commissionAgreement ? commissionOf(input.commissionAgreement, r) : undefined;
      built = buildOrder(sagaId, orderId, input, r, saga.plan, docs, auth, commission);
      // The holds lapse at the payment time limit: an order committed past it would claim seats
      // that may be someone else's by now, and its confirmation could never succeed (the saga
      // would stay running, its legs authorised). Refused and compensated instead.
      if (ctx.clock.now() >= saga.plan.paymentTimeLimit) throw new GatewayError("seat_hold_expired", { detail: `Order ${orderId}.` });
    } catch (e) {
      await compensateCreate(ctx, saga, codeOf(e));
      throw e;
    }

    try {
      // The order's commit also records the saga's `committed` recovery point (actor/persist.ts).
      await ctx.orders.ask(orderId, { op: "create", ...built });
    } catch (e) {
      // A commit whose answer was lost may still have happened: the store says which.
      if (!(await orderExists(ctx, orderId))) {
        await compensateCreate(ctx, saga, codeOf(e));
        throw e;
      }
    }
    saga = { ...saga, step: "committed" };
    crashPoint("after_commit");
    return finish(ctx, saga);
  });
}

/**
 * The saga's first recovery point, written with the hold ids before any hold is taken: a new
 * row, a compensated saga's next run, or a running one (a retry of its own run) updated.
 */
async function openSaga(
  ctx: OrdersContext,
  saga: SagaRow<CreatePlan> | undefined,
  o: { sagaId: string; orderId: string; owner: OrderCreateInput["seller"]; plan: CreatePlan; now: number },
): Promise<SagaRow<CreatePlan>> {
  if (!saga) {
    const opened = await ctx.sagas.start<CreatePlan>({ sagaId: o.sagaId, kind: "order_create", orderId: o.orderId, owner: o.owner, step: "holding", createdAt: o.now, plan: o.plan });
    // Another writer's row (never this process's: the saga lock serialises it): not ours to run.
    if (opened.plan.createdAt !== o.plan.createdAt || opened.orderId !== o.orderId) throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
    return opened;
  }
  if (saga.status === "compensated") return ctx.sagas.restart(saga, o.orderId, "holding", o.plan, o.now);
  return ctx.sagas.mark(saga, "holding", o.now, { plan: o.plan });
}

/** Past the commit point: confirm, capture, done. Also the reconciler's way forward. */
export async function finish(ctx: OrdersContext, saga: SagaRow<CreatePlan>): Promise<Order> {
  const order = await finishCommitted(ctx, saga.orderId, runOf(saga), SALE_CHANGE_REF);
  if (saga.status !== "done") await ctx.sagas.mark(saga, "done", ctx.clock.now(), { status: "done", alsoInTx: releaseRequest(ctx, saga) });
  return order;
}

/** Short of the commit point: every hold planned is released and every leg voided. */
export async function compensateCreate(ctx: OrdersContext, saga: SagaRow<CreatePlan>, errorCode: string): Promise<void> {
  await releaseHolds(ctx, saga.plan.seatHolds, saga.plan.partnerHolds);
  if (saga.plan.legCount > 0) await ctx.payments.voidAll(saga.orderId, `${runOf(saga)}/compensate`, { changeRef: SALE_CHANGE_REF });
  await ctx.sagas.mark(saga, saga.step, ctx.clock.now(), { status: "compensated", errorCode, alsoInTx: releaseRequest(ctx, saga) });
}

/**
 * The saga settles, and with it goes any in-flight lock a dead process's request left on its
 * ids (in the same transaction: no moment where the saga is settled and the retry still told to
 * wait). A request of this process keeps its lock, to store its own answer.
 */
function releaseRequest(ctx: OrdersContext, saga: SagaRow<CreatePlan>): ((tx: StoreDb) => Promise<void>) | undefined {
  const rq = saga.plan.request;
  return rq ? (tx) => releaseLeftBehind(tx, { clientId: saga.owner.clientId, ...rq }, ctx.instanceId) : undefined;
}

/** For a request lock left by a dead process: where the create saga of those ids stands. */
export async function createSagaProgress(ctx: OrdersContext, key: IdempotencyKey): Promise<GuardedWork> {
  const saga = await ctx.sagas.load(ids.createSaga(key.clientId, key.correlationId, key.trxId));
  if (!saga) return "none";
  return saga.status === "running" ? "running" : "settled";
}

const attemptOf = (saga: SagaRow<CreatePlan>) => saga.plan.attempt ?? 1;
/** The id this run's holds, payment keys and order id derive from. */
const runOf = (saga: SagaRow<CreatePlan>) => ids.createAttempt(saga.sagaId, attemptOf(saga));

export async function orderExists(ctx: OrdersContext, orderId: string): Promise<boolean> {
  return (await ctx.orders.ask(orderId, { op: "get" })) !== null;
}

function codeOf(e: unknown): string {
  return isGatewayError(e) ? e.code : "internal_error";
}
