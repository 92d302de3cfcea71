import { askTogether, type JointAsk } from "@ndc/actors";
import { GatewayError } from "@ndc/errors";
import type { SaleAuthorisation } from "@ndc/payments";
import type { OrdersContext } from "../../context";
import { fingerprintOf } from "../../fingerprint";
import { ids } from "../../ids";
import { writePhase } from "../../operation/store";
import type { Saga } from "../../saga/declaration";
import { runSaga } from "../../saga/runner";
import { refuseUnlessMove, type Order } from "../../state";
import { isStaff } from "../actor";
import type { AddInput, AddPlan, ReleasedSeat } from "./input";
import { QUOTE_PREFIX } from "./quote";
import { resolveAdded } from "./resolve";
import { orderAsk } from "../../actor/joint";
import { finishCharge } from "../charge/close";
import { heldSeats } from "../charge/operation";
import { chargeRow, postSaleCharge } from "../charge/plan";
import { authorisedLegs, chargeCommitted, chargeOpening, chargeStart, chargeSteps, compensateCharge, type ChargeRun } from "../charge/steps";

/**
 * A post-sale change (ORDRE2: extras, a seat, a seat change) as a saga declared in the steps
 * of every post-sale charge (servicing/charge/steps.ts, run by saga/runner.ts), each ONE write with its recovery point, the PSP called between
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
 * (compensated). The operation id derives from (the offer owner's client id, CorrelationID, TrxID), like OrderCreate's;
 * the same ids with another body (another order, other items) are idempotency_conflict. A retry
 * resumes the same change; after `done` it answers the order again (no second capture); after
 * `compensated` it is refused with payment_leg_voided (no late charge under a voided reference).
 */
export function addToOrder(ctx: OrdersContext, input: AddInput): Promise<Order> {
  return runSaga(ctx, addSaga, input);
}

type AddRun = ChargeRun<AddPlan> & { alsoInCommit?: AddInput["alsoInCommit"] };

/** A firm quote is spent by its first acceptance: its change's operation is keyed by the quote. */
function quoteOf(input: AddInput): string | undefined {
  return input.selections.length === 1 && input.selections[0]!.offerId.startsWith(QUOTE_PREFIX) ? input.selections[0]!.offerId : undefined;
}

export const addSaga: Saga<AddInput, AddPlan, AddRun> = {
  kind: "order_add",
  key: (input) => {
    const quoteId = quoteOf(input);
    const clientId = input.offerOwner.clientId;
    return { operationId: quoteId ? ids.addSaga(clientId, "quote", quoteId) : ids.addSaga(clientId, input.correlationId, input.trxId), fingerprint: fingerprintOf(askedAsStored(input)) };
  },
  opening: chargeOpening<AddInput, AddPlan>({
    quoteSpent: (input) => {
      const quoteId = quoteOf(input);
      return quoteId ? new GatewayError("quote_already_used", { detail: `Quote ${quoteId} was accepted by another request; ask for a new quote.` }) : undefined;
    },
    compensated: (seen) => `This change was not made (${seen.errorCode ?? "compensated"}) and its payment was voided; send a new TrxID to try again.`,
  }),
  start: chargeStart(planOf),
  steps: chargeSteps<AddPlan, AddRun>({ opened: "add_after_open", authorised: "add_after_authorise", committed: "add_after_commit" }, (ctx, run, auth) => commitPhase(ctx, run.op, auth, run.alsoInCommit)),
  committed: chargeCommitted,
  finish: finishCharge,
  compensate: (ctx, op, errorCode) => compensateCharge(ctx, op, errorCode),
};

/**
 * What makes a retry the same change, in the shape the fingerprint has always hashed: the input
 * as sent before `by` existed (`seller` the offer owner, `staffId` for staff), without the
 * agreement and the audit row. An addition open across a deploy is retried by the new code and
 * must hash alike, or it would be refused as idempotency_conflict (pinned in
 * test/servicing/add-fingerprint.test.ts).
 */
function askedAsStored(input: AddInput): object {
  const { commissionAgreement: _agreement, alsoInCommit: _also, by, offerOwner, ...asked } = input;
  return { ...asked, seller: offerOwner, ...(isStaff(by) ? { staffId: by.staffId } : {}) };
}

/** Everything the phases write, decided before anything is taken: a refusal here leaves nothing. */
async function planOf(ctx: OrdersContext, order: Order, input: AddInput, operationId: string, fingerprint: string) {
  refuseUnlessMove(order.state, "items_added");
  const changeRef = ids.changeRef("addition", operationId);
  const r = await resolveAdded(ctx, order, input, changeRef);
  const now = ctx.clock.now();
  const charge = postSaleCharge(order, { changeRef, at: now, amountMinor: r.chargeMinor, orderItemIds: r.items.map((i) => i.orderItemId), payment: input.payment, commissionAgreement: input.commissionAgreement });
  const plan: AddPlan = {
    fingerprint,
    changeRef,
    items: r.items,
    charge,
    ...(r.seat ? { seatHolds: [{ flightKey: r.seat.flightKey, holdId: ids.seatHold(operationId, r.seat.flightKey), seatIds: [r.seat.seatId] }] } : {}),
    ...(r.seat?.released ? { released: keptOf(r.seat.released, operationId) } : {}),
    legCount: input.payment.length,
    ...(isStaff(input.by) ? { staffId: input.by.staffId } : {}),
  };
  const request = { clientId: input.offerOwner.clientId, correlationId: input.correlationId, trxId: input.trxId };
  return chargeRow(ctx, { operationId, kind: "order_add", request, fingerprint }, order, plan, now);
}

/** A released seat of a shared hold: the others' seats get the hold they stay sold under, derived from the operation (a retry names the same). */
function keptOf(released: ReleasedSeat, operationId: string): ReleasedSeat {
  const { keptSeatIds, ...rest } = released;
  return keptSeatIds?.length ? { ...rest, kept: { flightKey: released.flightKey, holdId: ids.keptSeatHold(operationId, released.holdId), seatIds: keptSeatIds } } : rest;
}

/**
 * The commit, one write: the order records the change (items, charge, legs authorised), the seat
 * actor sells the new seat and frees the one it replaces in the same decision (so the old seat
 * is back for every channel exactly when the new one is taken), the legs' answers, `committed`.
 */
async function commitPhase(ctx: OrdersContext, op: AddRun["op"], auth: SaleAuthorisation, alsoInCommit?: AddInput["alsoInCommit"]): Promise<void> {
  const { plan } = op;
  const legs = authorisedLegs(auth, plan.changeRef);
  const kept = plan.released?.kept;
  const [seatHold] = heldSeats(plan);
  const seat: JointAsk[] = seatHold ? [ctx.inventory.joint.confirmSeats(seatHold.flightKey, seatHold.holdId, plan.released?.holdId, kept ? { holdId: kept.holdId, seatIds: kept.seatIds } : undefined)] : [];
  const change = {
    items: plan.items, legs, charge: plan.charge,
    ...(seatHold ? { seatHold } : {}),
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
