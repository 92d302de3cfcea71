import { CATALOGUE, GatewayError, isGatewayError, type ErrorCode } from "@ndc/errors";
import type { AuthoriseAllResult } from "@ndc/payments";
import type { OrdersContext } from "../context";
import { fingerprintOf } from "../fingerprint";
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
 * -> capture -> done. A recovery point is written before each step that takes something, so
 * after a crash the reconciler compensates a saga short of its commit and finishes one past
 * it. The saga id comes from (seller client, CorrelationID, TrxID), and every hold, leg and the
 * order id from the saga id, so running it again resumes it instead of starting a second order.
 */
export async function createOrder(ctx: OrdersContext, input: OrderCreateInput): Promise<Order> {
  const docs = checkRequest(input);
  const sagaId = ids.createSaga(input.seller.clientId, input.correlationId, input.trxId);
  const orderId = ids.order(sagaId);
  // What the seller asked, without the agreement the gateway looked up for it: an operator who
  // changes the agency's agreement between a crash and the retry has not made it another request.
  const { commissionAgreement: _agreement, ...asked } = input;
  const fingerprint = fingerprintOf(asked);
  return ctx.sagaLock.run(sagaId, async () => {
    const now = ctx.clock.now();
    let saga = await ctx.sagas.start<CreatePlan>({
      sagaId,
      kind: "order_create",
      orderId,
      owner: input.seller,
      step: "started",
      createdAt: now,
      plan: { fingerprint, createdAt: now, paymentTimeLimit: now + ctx.paymentTimeLimitMs, seatHolds: [], partnerHolds: [], legCount: input.payment?.length ?? 0 },
    });
    if (saga.plan.fingerprint !== fingerprint) throw new GatewayError("idempotency_conflict");
    // The reconciler records "reconciled", not a wire code: that attempt came to nothing (no
    // order, nothing held or charged), answered as the system failure it was.
    if (saga.status === "compensated") throw new GatewayError(wireCode(saga.errorCode), { detail: "(an earlier attempt with these ids)" });
    if (saga.status === "done" || (await orderExists(ctx, orderId))) return finish(ctx, saga);

    let auth: AuthoriseAllResult | undefined;
    let built: ReturnType<typeof buildOrder>;
    try {
      const r = await resolveSelections(ctx.offers, input.seller, ctx.ownerCode, input.selections, orderId);
      checkRules(input, r);
      const commission = input.commissionAgreement ? commissionOf(input.commissionAgreement, r) : undefined;

      // Holds: the ids are written down before any is taken, so a crash mid-way leaves a plan
      // naming every hold that may exist.
      const plan: CreatePlan = {
        ...saga.plan,
        seatHolds: r.seats.map((s) => ({ ...s, holdId: ids.seatHold(sagaId, s.flightKey) })),
        partnerHolds: r.partnerUnits.map((code) => ({ productCode: code, holdId: ids.partnerHold(sagaId, code) })),
      };
      saga = await ctx.sagas.mark(saga, "holding", ctx.clock.now(), { plan });
      await takeHolds(ctx, orderId, plan.seatHolds, plan.partnerHolds, plan.paymentTimeLimit);
      saga = await ctx.sagas.mark(saga, "held", ctx.clock.now());
      crashPoint("after_holds");

      if (input.payment?.length) {
        saga = await ctx.sagas.mark(saga, "authorising", ctx.clock.now());
        // One decline voids every leg already authorised (inside authoriseAll).
        auth = await ctx.payments.authoriseAll(orderId, SALE_CHANGE_REF, input.payment, `${sagaId}/authorise`);
        saga = await ctx.sagas.mark(saga, auth.status === "authorised" ? "authorised" : "declined", ctx.clock.now());
        crashPoint("after_authorise");
      }
      built = buildOrder(sagaId, orderId, input, r, saga.plan, docs, auth, commission);
    } catch (e) {
      await compensateCreate(ctx, saga, codeOf(e));
      throw e;
    }

    try {
      await ctx.orders.ask(orderId, { op: "create", ...built });
    } catch (e) {
      // A commit whose answer was lost may still have happened: the store says which.
      if (!(await orderExists(ctx, orderId))) {
        await compensateCreate(ctx, saga, codeOf(e));
        throw e;
      }
    }
    saga = await ctx.sagas.mark(saga, "committed", ctx.clock.now());
    crashPoint("after_commit");
    return finish(ctx, saga);
  });
}

/** Past the commit point: confirm, capture, done. Also the reconciler's way forward. */
export async function finish(ctx: OrdersContext, saga: SagaRow<CreatePlan>): Promise<Order> {
  const order = await finishCommitted(ctx, saga.orderId, saga.sagaId, SALE_CHANGE_REF);
  if (saga.status !== "done") await ctx.sagas.mark(saga, "done", ctx.clock.now(), { status: "done" });
  return order;
}

/** Short of the commit point: every hold planned is released and every leg voided. */
export async function compensateCreate(ctx: OrdersContext, saga: SagaRow<CreatePlan>, errorCode: string): Promise<void> {
  await releaseHolds(ctx, saga.plan.seatHolds, saga.plan.partnerHolds);
  if (saga.plan.legCount > 0) await ctx.payments.voidAll(saga.orderId, `${saga.sagaId}/compensate`, { changeRef: SALE_CHANGE_REF });
  await ctx.sagas.mark(saga, saga.step, ctx.clock.now(), { status: "compensated", errorCode });
}

export async function orderExists(ctx: OrdersContext, orderId: string): Promise<boolean> {
  return (await ctx.orders.ask(orderId, { op: "get" })) !== null;
}

function wireCode(code: string | undefined): ErrorCode {
  return code !== undefined && Object.hasOwn(CATALOGUE, code) ? (code as ErrorCode) : "internal_error";
}

function codeOf(e: unknown): string {
  return isGatewayError(e) ? e.code : "internal_error";
}
