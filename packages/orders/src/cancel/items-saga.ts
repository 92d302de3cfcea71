import type { JointAsk } from "@ndc/actors";
import { GatewayError, isGatewayError } from "@ndc/errors";
import { refundPlan } from "@ndc/payments";
import type { CancelledSeats } from "../actor/events";
import type { OrdersContext } from "../context";
import { ids } from "../ids";
import { isStaff, orderFor, type AlsoInCommit, type ServicingActor } from "../servicing/actor";
import { refuseUnlessMove, type ItemsCancellation, type Order, type OrderItem, type PendingCharge } from "../state";
import { verifyItemsQuote } from "./items-quote";
import { paidOf } from "./quote";
import { assertNoRefundPending, cancelCommitStep, cancelEnds, staffOf, type CancelInput, type CancelOperation, type CancelPlan, type CancelRun } from "./saga";
import type { Saga } from "../saga/declaration";
import { runSaga } from "../saga/runner";
import { cancelItemsTerms } from "./terms";
import { orderAsk } from "../actor/joint";
import { refuseIfStale } from "../actor/refusals";

/**
 * OrderChangeRQ AcceptCancelledOffer naming an items quote (`CIQ.`, cancel/items-quote.ts):
 * the items cancelled as the whole order's cancellation is (cancel/saga.ts), in two atomic
 * phases on one operation row (kind `order_cancel_items`), keyed by the quote so every retry
 * (any TrxID, any number at once) is the same operation and refunds once:
 *   1. commit, ONE write: the order's `items_cancelled` (the items, the refund), each seat of
 *      them released to every channel (a seat of a hold shared with other passengers' seats is
 *      released with the others kept sold under a hold of their own, one seat-actor decision),
 *      each partner unit released, the operation row with each leg's share, newest first, and
 *      a staff override's audit row;
 *      -> the PSP pays each card share back under `<op>/refund/<legId>`;
 *      -> the legs of a cancelled addition whose capture was still pending are voided at the
 *      PSP (cancel/pending-charges.ts), under `<op>/void/<changeRef>`;
 *   2. close, ONE write: the shares on the legs, the order's `refunded` (under the change), `done`
 *      (finishCancel, the whole order's close).
 * Nothing is taken before the commit; a committed one is finished by a retry or the reconciler.
 */
export async function commitCancelItems(ctx: OrdersContext, orderId: string, by: ServicingActor, quoteId: string, alsoInCommit?: AlsoInCommit): Promise<Order> {
  orderFor(await ctx.orders.ask(orderId, { op: "get" }), by);
  const signed = verifyItemsQuote(ctx, quoteId, orderId);
  return runSaga(ctx, cancelItemsSaga, { orderId, by, quoteId, signed, ...(alsoInCommit ? { alsoInCommit } : {}) });
}

type ItemsRun = CancelRun & { voided: readonly PendingCharge[] };

export const cancelItemsSaga: Saga<CancelInput<ReturnType<typeof verifyItemsQuote>>, CancelPlan, ItemsRun> = {
  kind: "order_cancel_items",
  // Keyed by the quote: every retry (any TrxID, any number at once) is the same operation.
  key: (input) => ({ operationId: ids.cancelItemsSaga(input.quoteId) }),
  opening: { resumesOthers: true },
  start: async (ctx, { orderId, by, quoteId, signed, alsoInCommit }, { operationId }) => {
    const order = (await ctx.orders.ask(orderId, { op: "get" }))!;
    refuseUnlessMove(order.state, "items_cancelled");
    refuseIfStale(order, signed.version);
    const now = ctx.clock.now();
    if (now >= signed.expiresAt) throw new GatewayError("cancel_quote_expired");
    assertNoRefundPending(order);
    const items = signed.orderItemIds.map((id) => order.items.find((i) => i.orderItemId === id)!);
    const legs = await ctx.payments.ledger.legs(orderId);
    // Judged again for who commits (a staff quote is no seller's way past the fare).
    const { overridden, voided, departureAsUtcMs } = cancelItemsTerms(ctx.supply, order, items, paidOf(order, legs), now, { airline: isStaff(by) });
    const override = overridden && isStaff(by) ? { staffId: by.staffId, ruleCode: overridden.ruleCode } : undefined;
    const changeRef = ids.changeRef("itemsCancellation", operationId);
    const plan: CancelPlan = {
      quoteId, refundMinor: signed.refundMinor, penaltyMinor: 0, changeRef,
      shares: signed.refundMinor > 0 ? refundPlan(legs, signed.refundMinor, order.currency, orderId) : [],
      key: `${operationId}/refund`,
      ...staffOf(by, override),
    };
    const op: CancelOperation = {
      operationId, kind: "order_cancel_items", fingerprint: "", orderId, owner: order.owner, phase: "committed", status: "running", plan, createdAt: now, updatedAt: now,
    };
    // RespendInd: the quote's amount kept on the order (cancel/retained.ts) until the first departure, nothing refunded.
    const kept = signed.retainedMinor !== undefined ? { retainedMinor: signed.retainedMinor, retainedUntil: departureAsUtcMs } : {};
    const cancellation: ItemsCancellation = { changeRef, quoteId, at: now, items, refundMinor: plan.refundMinor, ...kept, ...(voided ? { voided } : {}), ...(isStaff(by) ? { staffId: by.staffId } : {}), ...(override ? { override } : {}) };
    const seats = seatsReleased(order, items, operationId);
    const partners = order.partnerHolds.filter((p) => items.some((i) => i.kind === "partner_product" && i.ref === p.productCode));
    const asks: JointAsk[] = [
      orderAsk(ctx, orderId, { op: "cancelItems", change: { cancellation, seats: seats.map((s) => s.change), partnerHoldIds: partners.map((p) => p.holdId) }, atVersion: signed.version }),
      ...seats.map((s) => s.ask(ctx)),
      ...partners.map((p) => ctx.inventory.joint.releasePartnerProduct(p.productCode, p.holdId)),
    ];
    return { op, asks, overridden, voided: voided ?? [], ...(alsoInCommit ? { alsoInCommit } : {}) };
  },
  steps: [
    cancelCommitStep,
    // Past the commit: the legs of additions whose capture was pending are voided (best effort: their own saga voids what is left).
    { name: "void pending captures", invoke: (ctx, run) => voidPending(ctx, run.op.orderId, run.op.operationId, run.voided) },
  ],
  ...cancelEnds,
};

/**
 * The seat holds the cancelled seats leave: each hold holding one of them is released; the
 * seats of it that are not cancelled (other passengers' seats booked with it) are kept sold
 * under a hold of their own, derived from the operation, in the same seat-actor decision.
 */
function seatsReleased(order: Order, items: readonly OrderItem[], operationId: string): { change: CancelledSeats; ask: (ctx: OrdersContext) => JointAsk }[] {
  const gone = new Set(items.filter((i) => i.kind === "seat" && i.ref).map((i) => `${i.flightKeys?.[0]}|${i.ref}`));
  return order.seatHolds
    .filter((h) => h.seatIds.some((s) => gone.has(`${h.flightKey}|${s}`)))
    .map((h) => {
      const keptIds = h.seatIds.filter((s) => !gone.has(`${h.flightKey}|${s}`));
      const kept = keptIds.length ? { flightKey: h.flightKey, holdId: ids.keptSeatHold(operationId, h.holdId), seatIds: keptIds } : undefined;
      return {
        change: { releasedHoldId: h.holdId, ...(kept ? { kept } : {}) },
        ask: (ctx: OrdersContext) => ctx.inventory.joint.releaseSeats(h.flightKey, h.holdId, kept ? { holdId: kept.holdId, seatIds: kept.seatIds } : undefined),
      };
    });
}

/**
 * The legs of the additions the commit voided (their capture was pending) are released now. A
 * void the PSP does not answer is left to the addition's own saga: finishCharge, run by a retry or
 * the reconciler, reads the cancellation on the order and voids instead of capturing.
 */
async function voidPending(ctx: OrdersContext, orderId: string, operationId: string, voided: readonly PendingCharge[]): Promise<void> {
  for (const v of voided) {
    try {
      await ctx.payments.voidAll(orderId, `${operationId}/void/${v.changeRef}`, { changeRef: v.changeRef });
    } catch (e) {
      if (!isGatewayError(e)) throw e;
    }
  }
}
