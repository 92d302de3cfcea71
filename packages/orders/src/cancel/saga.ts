import { askTogether, type JointAsk } from "@ndc/actors";
import { GatewayError, isGatewayError } from "@ndc/errors";
import { refundPlan, type RefundShare } from "@ndc/payments";
import type { OrdersContext } from "../context";
import { ids } from "../ids";
import { writeOpen, writePhase, type OperationRow } from "../operation/store";
import { crashPoint } from "../saga/crash-point";
import type { Saga, SagaStep } from "../saga/declaration";
import { phaseWrite } from "../saga/phase-write";
import { runSaga } from "../saga/runner";
import { appendOverride } from "../servicing/override/audit";
import { isStaff, orderFor, type AlsoInCommit, type ServicingActor } from "../servicing/actor";
import { notFound, refuseUnlessMove, type ChangeOverride, type Order } from "../state";
import { paidOf, refundsPending, verifyQuote } from "./quote";
import { cancelTerms } from "./terms";
import { orderAsk } from "../actor/joint";
import { refuseIfStale } from "../actor/refusals";

/** The cancellation's recovery record (operations.plan): the quote it accepted and where the refund goes. */
export interface CancelPlan {
  quoteId: string;
  refundMinor: number;
  penaltyMinor: number;
  /** Every captured leg's share, newest first, fixed by the commit write. */
  shares: RefundShare[];
  /** Each share is released under `<key>/<legId>` at the PSP and in the ledger. */
  key: string;
  /** An items cancellation's change (cancel/items-saga.ts): its refund is recorded under it. Absent: the whole order's. */
  changeRef?: string;
  /** The airline's staff member who made it, and the fare rule overridden (also in servicing_overrides). */
  staffId?: string;
  overridden?: string;
}

export type CancelOperation = OperationRow<CancelPlan>;

/**
 * OrderChangeRQ AcceptCancelledOffer: the whole order cancelled as a saga in atomic phases
 * (issue 8 §1, decision 0015), its operation id derived from the order alone, so every retry
 * of the commit (any TrxID, any number at once) is the same operation and refunds once:
 *   1. commit, ONE write: the order `cancelled` (with the accepted quote), every seat and
 *      partner unit released to every channel (the inventory actors' events), and the operation
 *      row (phase `committed`, its plan naming each leg's share, newest first);
 *      -> the PSP pays each card share back under `<op>/refund/<legId>`;
 *   2. close, ONE write: the shares on the legs and their ledger entries (own instruments given
 *      back here), the order's legs `refunded`, phase `done`.
 * Nothing is taken before the commit, so a crash leaves the order booked (absent cancellation)
 * or cancelled with its operation `committed`, which a retry or the reconciler finishes under
 * the same keys (finishCancel).
 */
export async function commitCancel(ctx: OrdersContext, orderId: string, by: ServicingActor, quoteId: string, alsoInCommit?: AlsoInCommit): Promise<Order> {
  orderFor(await ctx.orders.ask(orderId, { op: "get" }), by);
  const signed = verifyQuote(ctx.fieldKey, quoteId, orderId);
  return runSaga(ctx, cancelSaga, { orderId, by, quoteId, signed, ...(alsoInCommit ? { alsoInCommit } : {}) });
}

/** What a cancellation's commit step is asked: the order, who asks, the quote accepted (verified before the lock). */
export interface CancelInput<Q> {
  orderId: string;
  by: ServicingActor;
  quoteId: string;
  signed: Q;
  alsoInCommit?: AlsoInCommit;
}

/** A cancellation's run: its row, what the commit write asks of the actors, the fare rule overridden. */
export interface CancelRun {
  op: CancelOperation;
  asks: JointAsk[];
  overridden: { ruleCode: string; ruleText: string } | undefined;
  alsoInCommit?: AlsoInCommit;
}

/** The commit step of a cancellation (whole order or items): ONE write, nothing taken before it, so no compensation. */
export const cancelCommitStep: SagaStep<CancelRun> = {
  name: "commit",
  phase: "committed",
  commit: true,
  invoke: (ctx, run) => commitPhase(ctx, run.op, run.asks, run.overridden, run.op.createdAt, run.alsoInCommit),
  crashAfter: "cancel_after_commit",
};

/** What a cancellation's saga shares with the items': no fingerprint (keyed by the order or the quote), any process finishes a committed row, the refund after the commit. */
export const cancelEnds = {
  finish: (ctx: OrdersContext, op: CancelOperation) => (op.status === "done" ? current(ctx, op.orderId) : refundOrLeave(ctx, op)),
  forward: (ctx: OrdersContext, op: CancelOperation) => finishCancel(ctx, op),
};

type SignedCancel = ReturnType<typeof verifyQuote>;

export const cancelSaga: Saga<CancelInput<SignedCancel>, CancelPlan, CancelRun> = {
  kind: "order_cancel",
  // Derived from the order alone: every retry of the commit (any TrxID, any number at once) is the same operation.
  key: (input) => ({ operationId: ids.cancelSaga(input.orderId) }),
  opening: {
    spent: (seen, input) => (seen.plan.quoteId !== input.quoteId ? new GatewayError("order_state_invalid", { detail: "The order is cancelled already." }) : undefined),
    resumesOthers: true,
  },
  start: async (ctx, { orderId, by, quoteId, signed, alsoInCommit }, { operationId }) => {
    const order = (await ctx.orders.ask(orderId, { op: "get" }))!;
    refuseUnlessMove(order.state, "cancelled");
    refuseIfStale(order, signed.version);
    const now = ctx.clock.now();
    if (now >= signed.expiresAt) throw new GatewayError("cancel_quote_expired");
    assertNoRefundPending(order);
    const legs = await ctx.payments.ledger.legs(orderId);
    // Judged again for who commits: a quote the airline's staff were given is no seller's way past the fare.
    const { overridden, retainedMinor } = cancelTerms(ctx.supply, order, paidOf(order, legs), now, { airline: isStaff(by) });
    const override = overridden && isStaff(by) ? { staffId: by.staffId, ruleCode: overridden.ruleCode } : undefined;
    const plan: CancelPlan = {
      quoteId,
      refundMinor: signed.refundMinor,
      penaltyMinor: signed.penaltyMinor,
      shares: signed.refundMinor > 0 ? refundPlan(legs, signed.refundMinor, order.currency, orderId) : [],
      key: `${operationId}/refund`,
      ...staffOf(by, override),
    };
    const op: CancelOperation = {
      operationId, kind: "order_cancel", fingerprint: "", orderId, owner: order.owner, phase: "committed", status: "running", plan, createdAt: now, updatedAt: now,
    };
    const cancellation = { quoteId, at: now, refundMinor: plan.refundMinor, penaltyMinor: plan.penaltyMinor, ...(retainedMinor ? { retainedMinor } : {}), ...(isStaff(by) ? { staffId: by.staffId } : {}), ...(override ? { override } : {}) };
    const asks: JointAsk[] = [
      orderAsk(ctx, order.orderId, { op: "cancel", cancellation, atVersion: signed.version }),
      ...order.seatHolds.map((h) => ctx.inventory.joint.releaseSeats(h.flightKey, h.holdId)),
      ...order.partnerHolds.map((p) => ctx.inventory.joint.releasePartnerProduct(p.productCode, p.holdId)),
    ];
    return { op, asks, overridden, ...(alsoInCommit ? { alsoInCommit } : {}) };
  },
  steps: [cancelCommitStep],
  ...cancelEnds,
};

/** The staff member and the rule overridden, as a cancellation's plan records them. */
export function staffOf(by: ServicingActor, override: ChangeOverride | undefined): Pick<CancelPlan, "staffId" | "overridden"> {
  return { ...(isStaff(by) ? { staffId: by.staffId } : {}), ...(override ? { overridden: override.ruleCode } : {}) };
}

/**
 * A cancellation's refund shares are fixed at its commit from the legs' captured amounts, so a
 * second cancellation is not committed while an earlier one's refund is still being paid back
 * (a retry, the reconciler or staff finish it first): two plans never promise the same money.
 */
export function assertNoRefundPending(order: Order): void {
  const [pending] = refundsPending(order);
  if (pending) throw new GatewayError("order_state_invalid", { detail: `The refund of an earlier cancellation (${pending.changeRef}) is still being paid back; ask again once it is.` });
}

/**
 * Past the commit the order IS cancelled, whatever the PSP says next: a refund the PSP refuses
 * or does not answer is left to the reconciler (and after its last attempt to staff as
 * reconcile_failed), and the seller is answered with the cancelled order, whose PAYSUM shows
 * no refund for that leg yet rather than an error that would read as "not cancelled".
 */
async function refundOrLeave(ctx: OrdersContext, op: CancelOperation): Promise<Order> {
  try {
    return await finishCancel(ctx, op);
  } catch (e) {
    if (!isGatewayError(e) || !REFUND_LEFT_TO_RECONCILER.has(e.code)) throw e;
    return current(ctx, op.orderId);
  }
}

export const REFUND_LEFT_TO_RECONCILER = new Set<string>(["psp_unavailable", "payment_leg_state_invalid"]);

/**
 * Phase 1, one joint write: the order's change (cancelled, or items cancelled), the stock it
 * releases, the operation row and, for a staff override, its audit row: recorded exactly when
 * the change is made; and the staff console's own audit row (`alsoInCommit`).
 */
export async function commitPhase(ctx: OrdersContext, op: CancelOperation, asks: JointAsk[], overridden: { ruleCode: string; ruleText: string } | undefined, now: number, alsoInCommit?: AlsoInCommit): Promise<void> {
  // Another gateway on this store committing the same cancellation first is request_in_progress (phaseWrite).
  await phaseWrite(ctx, asks, async (tx) => {
    await writeOpen(tx, op, undefined, ctx.instanceId, now);
    if (overridden && op.plan.staffId && op.plan.overridden) {
      await appendOverride(tx, { at: now, staffId: op.plan.staffId, channel: "airline_staff", orderId: op.orderId, operationId: op.operationId, ...overridden });
    }
    if (alsoInCommit) {
      const overriding = overridden && op.plan.overridden ? { allowedBy: "override" as const, override: overridden } : { allowedBy: "fare" as const };
      await alsoInCommit(tx, { operationId: op.operationId, ...overriding });
    }
  });
}

/**
 * Past the commit: the PSP pays back each card share under its key (asked again, it answers
 * its first refund), then phase 2 records every share once and closes the operation. Also the
 * reconciler's way forward.
 */
async function finishCancel(ctx: OrdersContext, op: CancelOperation): Promise<Order> {
  const { shares, key } = op.plan;
  await ctx.payments.release.pay(ctx.store.db, shares, key);
  crashPoint("cancel_after_refund");
  const now = ctx.clock.now();
  const { changeRef } = op.plan;
  const legs = shares.map((s) => ({ legId: s.legId, amountMinor: s.amount }));
  const asks: JointAsk[] = shares.length ? [orderAsk(ctx, op.orderId, { op: "recordRefunds", legs, ...(changeRef ? { changeRef } : {}) })] : [];
  const [after] = await askTogether(ctx.store, ctx.clock, asks, async (tx) => {
    await ctx.payments.release.record(tx, shares, key, now);
    await writePhase(tx, op.operationId, "done", now, { status: "done" });
  });
  crashPoint("cancel_after_close");
  return (after as Order | undefined) ?? current(ctx, op.orderId);
}

export async function current(ctx: OrdersContext, orderId: string): Promise<Order> {
  const order = await ctx.orders.ask(orderId, { op: "get" });
  if (!order) throw notFound();
  return order;
}
