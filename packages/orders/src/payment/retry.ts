import { GatewayError, isGatewayError } from "@ndc/errors";
import type { LegRequest } from "@ndc/payments";
import type { OrdersContext } from "../context";
import { checkLegsPayTotal } from "../create/rules";
import { ids } from "../ids";
import { finishCommitted } from "../saga/finish";
import { writeOpen, writePhase, type OperationRow } from "../operation/store";
import { assertOwner, isHeld, type Order, type OrderLegRef, type Seller } from "../state";
import { refuseCardData, validateLegs } from "@ndc/payments";

export interface RetryPlan {
  changeRef: string;
}

/**
 * The seller pays a held order (OrderChangeRQ, spec 3 and 4.7): within the payment time limit,
 * legs authorised together -> the order records them and is booked (the commit point) -> holds
 * confirmed, legs captured. A decline keeps the order held, time limit unchanged. Journaled as
 * a payment_retry saga so the reconciler voids legs short of the commit and captures past it.
 * `key` identifies the attempt (CorrelationID/TrxID of the OrderChangeRQ): the same key resumes.
 */
export async function retryPayment(ctx: OrdersContext, orderId: string, seller: Seller, legs: LegRequest[], key: string): Promise<Order> {
  refuseCardData(legs, "PaymentFunctions");
  validateLegs(legs);
  const order = assertOwner(await ctx.orders.ask(orderId, { op: "get" }), seller);
  const sagaId = ids.retrySaga(orderId, key);
  const changeRef = `retry-${sagaId.slice(3, 15)}`;
  return ctx.operationLock.run(sagaId, async () => {
    const existing = await ctx.operations.load<RetryPlan>(sagaId);
    if (existing?.status === "done") return finishCommitted(ctx, orderId, sagaId, changeRef);
    if (!existing) {
      if (!isHeld(order.state)) throw new GatewayError("order_state_invalid", { detail: `The order is ${order.state}; only a held order is paid this way.` });
      if (order.paymentTimeLimit !== undefined && ctx.clock.now() >= order.paymentTimeLimit) throw new GatewayError("payment_time_limit_passed");
      checkLegsPayTotal(legs, order.currency, order.totalMinor);
    }
    let saga = existing ?? (await startRetry(ctx, { sagaId, orderId, owner: order.owner, changeRef }));
    const auth = await ctx.payments.authoriseAll(orderId, changeRef, legs, `${sagaId}/authorise`);
    if (auth.status === "declined") {
      const refs: OrderLegRef[] = [
        { legId: auth.declined.legId, kind: auth.declined.kind, amountMinor: auth.declined.requested, state: "declined", changeRef },
        ...auth.voided.map((l) => ({ legId: l.legId, kind: l.kind, amountMinor: l.authorised, state: "voided", changeRef })),
      ];
      const after = await ctx.orders.ask(orderId, { op: "markPaymentDeclined", legs: refs, code: auth.code });
      await finishCommitted(ctx, orderId, sagaId, changeRef);
      await mark(ctx, saga, "done", "done");
      return after!;
    }
    saga = await mark(ctx, saga, "authorised");
    try {
      await ctx.orders.ask(orderId, {
        op: "recordPaymentAuthorised",
        legs: auth.legs.map((l) => ({ legId: l.legId, kind: l.kind, amountMinor: l.authorised, state: "authorised", changeRef })),
      });
    } catch (e) {
      // Refused (the time limit passed meanwhile, the order was cancelled): nothing may stay authorised.
      await compensateRetry(ctx, saga, isGatewayError(e) ? e.code : "internal_error");
      throw e;
    }
    saga = await mark(ctx, saga, "committed");
    const done = await finishCommitted(ctx, orderId, sagaId, changeRef);
    await mark(ctx, saga, "done", "done");
    return done;
  });
}

/** Short of its commit point a retry only voids its own legs: the held order keeps its holds. */
export async function compensateRetry(ctx: OrdersContext, saga: OperationRow<RetryPlan>, errorCode: string): Promise<void> {
  await ctx.payments.voidAll(saga.orderId, `${saga.operationId}/compensate`, { changeRef: saga.plan.changeRef });
  await ctx.store.write((tx) => writePhase(tx, saga.operationId, saga.phase, ctx.clock.now(), { status: "compensated", errorCode }));
}

/** The retry's first recovery point: its operation row, before any leg is asked for. */
async function startRetry(ctx: OrdersContext, o: { sagaId: string; orderId: string; owner: Seller; changeRef: string }): Promise<OperationRow<RetryPlan>> {
  const now = ctx.clock.now();
  const row: OperationRow<RetryPlan> = {
    operationId: o.sagaId, kind: "payment_retry", fingerprint: "", orderId: o.orderId, owner: o.owner,
    phase: "authorising", status: "running", plan: { changeRef: o.changeRef }, createdAt: now, updatedAt: now,
  };
  await ctx.store.write((tx) => writeOpen(tx, row, undefined, ctx.instanceId, now));
  return row;
}

async function mark(ctx: OrdersContext, saga: OperationRow<RetryPlan>, phase: string, status: "running" | "done" = "running"): Promise<OperationRow<RetryPlan>> {
  const now = ctx.clock.now();
  await ctx.store.write((tx) => writePhase(tx, saga.operationId, phase, now, { status }));
  return { ...saga, phase, status, updatedAt: now };
}

/** Whether the order recorded the retry's legs (its commit point). */
export function retryCommitted(order: Order | null, plan: RetryPlan): boolean {
  return !!order && order.legs.some((l) => l.changeRef === plan.changeRef && (l.state === "authorised" || l.state === "captured"));
}
