import { askTogether, type JointAsk } from "@ndc/actors";
import { GatewayError, isGatewayError } from "@ndc/errors";
import { money, type CurrencyCode } from "@ndc/money";
import { chargeCommission, type PlannedLeg, type SaleAuthorisation } from "@ndc/payments";
import { isConstraintViolation } from "@ndc/store";
import type { OrdersContext } from "../../context";
import { checkLegsPayTotal, legsTaken } from "../../create/rules";
import { fingerprintOf } from "../../fingerprint";
import { ids } from "../../ids";
import { writeOpen, writePhase, type OperationRow } from "../../operation/store";
import { crashPoint, type CrashPoint } from "../../saga/crash-point";
import { releaseHolds } from "../../saga/holds";
import { assertOwner, notFound, refuseUnlessMove, type Order, type OrderLegRef, type SeatHoldRef } from "../../state";
import type { AddInput, AddPlan, ReleasedSeat } from "./input";
import { QUOTE_PREFIX } from "./quote";
import { resolveAdded } from "./resolve";
import { refuseIfHeldElsewhere } from "../../saga/held-elsewhere";
import { voidedByCancellation } from "../../cancel/pending-charges";
import { spendRetained } from "../../cancel/retained";
import { orderAsk } from "../../actor/joint";

type AddOperation = OperationRow<AddPlan>;
/** What the close and the compensation read of a change's plan: the flight change (servicing/flight/saga.ts) ends the same way. */
export type ChargeOperation = OperationRow<{ changeRef: string; legCount: number; seatHold?: SeatHoldRef; seatHolds?: SeatHoldRef[] }>;

/**
 * A post-sale change (ORDRE2: extras, a seat, a seat change) as a saga in the phases of
 * OrderCreate (create/saga.ts), each ONE write with its recovery point, the PSP called between
 * them under keys written before the call (spec 3, post-sale charge life cycle):
 *   1. open: the new seat's hold, the operation row (kind `order_add`, phase `open`, its plan
 *      naming the items, the charge and its commission) and the planned card legs;
 *      -> each leg authorised (credit reserved before the change is made);
 *   2. commit: the order's `items_added` (items, legs, charge), the seat sold and the seat it
 *      replaces released (one seat-actor decision; other passengers' seats booked in the same
 *      hold kept sold under a hold of their own), the legs' answers, phase `committed`;
 *      -> the PSP captures each leg under `<op>/capture/<leg>` (after the change is made);
 *   3. close: the captures on the legs and the order, phase `done`.
 * A decline, or a refusal before the commit, voids what was authorised and frees the hold
 * (compensated). The operation id derives from (seller, CorrelationID, TrxID), like OrderCreate's;
 * the same ids with another body (another order, other items) are idempotency_conflict. A retry
 * resumes the same change; after `done` it answers the order again (no second capture); after
 * `compensated` it is refused with payment_leg_voided (no late charge under a voided reference).
 */
export async function addToOrder(ctx: OrdersContext, input: AddInput): Promise<Order> {
  // A firm quote is spent by its first acceptance: its change's operation is keyed by the quote.
  const quoteId = input.selections.length === 1 && input.selections[0]!.offerId.startsWith(QUOTE_PREFIX) ? input.selections[0]!.offerId : undefined;
  const operationId = quoteId ? ids.addSaga(input.seller.clientId, "quote", quoteId) : ids.addSaga(input.seller.clientId, input.correlationId, input.trxId);
  const { commissionAgreement: _agreement, alsoInCommit, ...asked } = input;
  const fingerprint = fingerprintOf(asked);
  return ctx.operationLock.run(operationId, async () => {
    const seen = await ctx.operations.load<AddPlan>(operationId);
    if (quoteId && seen && (seen.request?.correlationId !== input.correlationId || seen.request?.trxId !== input.trxId)) {
      throw new GatewayError("quote_already_used", { detail: `Quote ${quoteId} was accepted by another request; ask for a new quote.` });
    }
    if (seen && seen.plan.fingerprint !== fingerprint) throw new GatewayError("idempotency_conflict");
    refuseIfHeldElsewhere(ctx, seen);
    if (seen?.status === "compensated") {
      throw new GatewayError("payment_leg_voided", { detail: `This change was not made (${seen.errorCode ?? "compensated"}) and its payment was voided; send a new TrxID to try again.` });
    }
    if (seen && (seen.status === "done" || seen.phase === "committed")) return finishAdd(ctx, seen);
    const order = assertOwner(await ctx.orders.ask(input.orderId, { op: "get" }), input.seller);
    // A change costing nothing is sent without legs, or with legs of 0.00 that take nothing (planOf refuses legs it does not need).
    const payment = legsTaken(input.payment);
    const planned = payment.length ? ctx.payments.sale.plan(payment, `${operationId}/authorise`) : [];
    // A retry of an open change whose process died: the open write stands, its keys find the PSP's answers.
    const op = seen ?? (await openPhase(ctx, await planOf(ctx, order, { ...input, payment }, operationId, fingerprint), planned));
    crashPoint("add_after_open");
    return authoriseCommitFinish(ctx, op, planned, (auth) => commitPhase(ctx, op, auth, alsoInCommit), { authorised: "add_after_authorise", committed: "add_after_commit" });
  });
}

/**
 * The middle of a post-sale charge's saga, after its open write (this one's, and the flight
 * change's, servicing/flight/saga.ts): the legs authorised under `<op>/authorise`, the commit
 * write, the close (`finish`: the captures by default; a cheaper flight change's refund); a
 * decline or a failure short of the commit compensates.
 */
export async function authoriseCommitFinish<P extends ChargeOperation["plan"]>(
  ctx: OrdersContext,
  op: OperationRow<P>,
  planned: readonly PlannedLeg[],
  commit: (auth: SaleAuthorisation) => Promise<void>,
  points: { authorised: CrashPoint; committed: CrashPoint },
  finish: (ctx: OrdersContext, op: OperationRow<P>) => Promise<Order> = finishAdd,
): Promise<Order> {
  let auth: SaleAuthorisation;
  try {
    auth = await ctx.payments.sale.authorise(op.orderId, op.plan.changeRef, planned, `${op.operationId}/authorise`, ctx.clock.now());
    crashPoint(points.authorised);
  } catch (e) {
    await compensateAdd(ctx, op, codeOf(e));
    throw e;
  }
  if (auth.result.status === "declined") {
    await compensateAdd(ctx, op, auth.result.code, auth);
    throw new GatewayError(auth.result.code, { detail: "The change was not made; every leg authorised for it was voided." });
  }
  try {
    await commit(auth);
  } catch (e) {
    // A commit whose answer was lost may still have happened: the order says which.
    if (!(await committed(ctx, op))) {
      await compensateAdd(ctx, op, codeOf(e));
      throw e;
    }
  }
  crashPoint(points.committed);
  return finish(ctx, { ...op, phase: "committed" });
}

/** Everything the phases write, decided before anything is taken: a refusal here leaves nothing. */
async function planOf(ctx: OrdersContext, order: Order, input: AddInput, operationId: string, fingerprint: string): Promise<AddOperation> {
  refuseUnlessMove(order.state, "items_added");
  const changeRef = ids.changeRef("addition", operationId);
  const r = await resolveAdded(ctx, order, input, changeRef);
  // A value the order retained (RespendInd) pays first; the legs pay what is left (cancel/retained.ts).
  const { spentMinor, dueMinor } = spendRetained(order, r.chargeMinor);
  if (dueMinor > 0) checkLegsPayTotal(input.payment, order.currency, dueMinor);
  else if (input.payment.length) throw new GatewayError("payment_legs_invalid", { detail: spentMinor ? "The change is paid by the value retained on the order; send no PaymentFunctions (or PaymentFunctions of 0.00)." : "The change costs nothing; send no PaymentFunctions (or PaymentFunctions of 0.00)." });
  // SHPOR1 rule 6: on the charge's own amount; a flat or foreign-currency tiered agreement refuses the change.
  const c = input.commissionAgreement && r.chargeMinor > 0 ? chargeCommission(input.commissionAgreement, money(r.chargeMinor, order.currency as CurrencyCode)) : undefined;
  const now = ctx.clock.now();
  const plan: AddPlan = {
    fingerprint,
    changeRef,
    items: r.items,
    charge: {
      changeRef, at: now, amountMinor: r.chargeMinor, orderItemIds: r.items.map((i) => i.orderItemId), ...(spentMinor ? { retainedSpentMinor: spentMinor } : {}),
      ...(c ? { commission: { amountMinor: c.amount.amount, basisMinor: c.basis.amount, rule: c.rule } } : {}),
    },
    ...(r.seat ? { seatHold: { flightKey: r.seat.flightKey, holdId: ids.seatHold(operationId, r.seat.flightKey), seatIds: [r.seat.seatId] } } : {}),
    ...(r.seat?.released ? { released: keptOf(r.seat.released, operationId) } : {}),
    legCount: input.payment.length,
    ...(input.staffId ? { staffId: input.staffId } : {}),
  };
  return {
    operationId, kind: "order_add", request: { clientId: input.seller.clientId, correlationId: input.correlationId, trxId: input.trxId },
    fingerprint, orderId: order.orderId, owner: order.owner, phase: "open", status: "running", plan, lockOwner: ctx.instanceId, createdAt: now, updatedAt: now,
  };
}

/** A released seat of a shared hold: the others' seats get the hold they stay sold under, derived from the operation (a retry names the same). */
function keptOf(released: ReleasedSeat, operationId: string): ReleasedSeat {
  const { keptSeatIds, ...rest } = released;
  return keptSeatIds?.length ? { ...rest, kept: { flightKey: released.flightKey, holdId: ids.keptSeatHold(operationId, released.holdId), seatIds: keptSeatIds } } : rest;
}

/** Phase 1, one write: the new seat's hold (held until the commit sells it), the operation row, the planned card legs. */
function openPhase(ctx: OrdersContext, op: AddOperation, planned: readonly PlannedLeg[]): Promise<AddOperation> {
  return openChargePhase(ctx, op, op.plan.seatHold ? [op.plan.seatHold] : [], planned);
}

/** A post-sale charge's open write (this saga's and the flight change's): the seats held, the operation row, the planned legs. */
export async function openChargePhase<O extends ChargeOperation>(ctx: OrdersContext, op: O, seats: readonly SeatHoldRef[], planned: readonly PlannedLeg[]): Promise<O> {
  // A post-sale hold only has to outlive the saga; the reconciler frees it if the saga dies.
  const holds: JointAsk[] = seats.map((h) => ctx.inventory.joint.holdSeats({ flightKey: h.flightKey, seatIds: h.seatIds, holder: op.orderId, channel: "ndc", expiresAt: op.createdAt + ctx.paymentTimeLimitMs, holdId: h.holdId }));
  try {
    await askTogether(ctx.store, ctx.clock, holds, async (tx) => {
      await writeOpen(tx, op, undefined, ctx.instanceId, op.createdAt);
      await ctx.payments.sale.writePlanned(tx, op.orderId, op.plan.changeRef, planned, op.createdAt);
    });
  } catch (e) {
    if (!isConstraintViolation(e)) throw e;
    if (await ctx.operations.load(op.operationId)) throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
    throw new GatewayError("seat_unavailable", { detail: "(refused by the store)" });
  }
  return op;
}

/**
 * Phase 2, one write: the order records the change (items, charge, legs authorised), the seat
 * actor sells the new seat and frees the one it replaces in the same decision (so the old seat
 * is back for every channel exactly when the new one is taken), the legs' answers, `committed`.
 */
async function commitPhase(ctx: OrdersContext, op: AddOperation, auth: SaleAuthorisation, alsoInCommit?: AddInput["alsoInCommit"]): Promise<void> {
  const { plan } = op;
  const legs = authorisedLegs(auth, plan.changeRef);
  const kept = plan.released?.kept;
  const seat: JointAsk[] = plan.seatHold ? [ctx.inventory.joint.confirmSeats(plan.seatHold.flightKey, plan.seatHold.holdId, plan.released?.holdId, kept ? { holdId: kept.holdId, seatIds: kept.seatIds } : undefined)] : [];
  const change = {
    items: plan.items, legs, charge: plan.charge,
    ...(plan.seatHold ? { seatHold: plan.seatHold } : {}),
    ...(plan.released ? { released: { orderItemId: plan.released.orderItemId, holdId: plan.released.holdId, seatId: plan.released.seatId, ...(kept ? { kept } : {}) } } : {}),
    ...(plan.staffId ? { staffId: plan.staffId } : {}),
  };
  const now = ctx.clock.now();
  await askTogether(ctx.store, ctx.clock, [orderAsk(ctx, op.orderId, { op: "addItems", change }), ...seat], async (tx) => {
    await ctx.payments.sale.record(tx, op.orderId, auth, now);
    await writePhase(tx, op.operationId, "committed", now);
    // An addition is not a fare matter: nothing to override.
    if (alsoInCommit) await alsoInCommit(tx, { operationId: op.operationId, allowedBy: "fare" });
  });
}

/** The legs a post-sale charge's commit records on the order, as the PSP authorised them. */
export function authorisedLegs(auth: SaleAuthorisation, changeRef: string): OrderLegRef[] {
  return auth.result.status === "authorised" ? auth.result.legs.map((l) => ({ legId: l.legId, kind: l.kind, amountMinor: l.authorised, state: "authorised", changeRef })) : [];
}

/**
 * Phase 3 (and the reconciler's way forward past the commit): the PSP captures the change's
 * legs under their keys, then one write records the captures and `done`. Run again, the same
 * keys find the first captures; a done change answers the order as it is. An order cancelled
 * since the commit has the change's legs voided instead.
 */
export async function finishAdd(ctx: OrdersContext, op: ChargeOperation): Promise<Order> {
  const order = await ctx.orders.ask(op.orderId, { op: "get" });
  if (!order) throw notFound();
  if (op.status === "done") return order;
  const legIds = order.legs.filter((l) => l.changeRef === op.plan.changeRef && l.state === "authorised").map((l) => l.legId);
  const itemsCancelled = voidedByCancellation(order, op.plan.changeRef);
  if (order.state !== "booked" || itemsCancelled) {
    // Cancelled since the change was committed (spec 3), the whole order or the change's items:
    // its legs are voided, not captured (the cancellation refunded only what was captured). A
    // void the PSP keeps refusing goes to staff.
    if (legIds.length) await ctx.payments.voidAll(order.orderId, `${op.operationId}/void`, { changeRef: op.plan.changeRef });
    await ctx.store.write((tx) => writePhase(tx, op.operationId, "done", ctx.clock.now(), { status: "done", errorCode: itemsCancelled && order.state === "booked" ? "items_cancelled" : "order_cancelled" }));
    return order;
  }
  const key = `${op.operationId}/capture`;
  if (legIds.length) {
    const legs = (await ctx.payments.ledger.legs(order.orderId)).filter((l) => legIds.includes(l.legId));
    await ctx.payments.sale.capture(legs, key);
    crashPoint("add_after_capture");
  }
  const now = ctx.clock.now();
  const asks: JointAsk[] = legIds.length ? [orderAsk(ctx, order.orderId, { op: "recordPaymentCaptured", legIds })] : [];
  const [after] = await askTogether(ctx.store, ctx.clock, asks, async (tx) => {
    await ctx.payments.sale.recordCaptures(tx, order.orderId, legIds, key, now);
    await writePhase(tx, op.operationId, "done", now, { status: "done" });
  });
  crashPoint("add_after_close");
  return (after as Order | undefined) ?? order;
}

/**
 * Short of the commit: the change is not made. The new seat's hold is freed, every leg of the
 * change voided (asked about by key first), and one write records the PSP's answers (when the
 * request has them) with `compensated`. The seat it would have replaced was never touched.
 */
export async function compensateAdd(ctx: OrdersContext, op: ChargeOperation, errorCode: string, auth?: SaleAuthorisation): Promise<void> {
  const holds = [...(op.plan.seatHold ? [op.plan.seatHold] : []), ...(op.plan.seatHolds ?? [])];
  if (holds.length) await releaseHolds(ctx, holds, []);
  const now = ctx.clock.now();
  if (auth) {
    await ctx.store.write(async (tx) => {
      await ctx.payments.sale.record(tx, op.orderId, auth, now);
      await writePhase(tx, op.operationId, op.phase, now, { status: "compensated", errorCode });
    });
    return;
  }
  if (op.plan.legCount > 0) await ctx.payments.voidAll(op.orderId, `${op.operationId}/compensate`, { changeRef: op.plan.changeRef });
  await ctx.store.write((tx) => writePhase(tx, op.operationId, op.phase, now, { status: "compensated", errorCode }));
}

/** Whether the order recorded this change (its commit point). */
export async function committed(ctx: OrdersContext, op: ChargeOperation): Promise<boolean> {
  const order = await ctx.orders.ask(op.orderId, { op: "get" });
  return !!order?.charges?.some((c) => c.changeRef === op.plan.changeRef);
}

function codeOf(e: unknown): string {
  return isGatewayError(e) ? e.code : "internal_error";
}
