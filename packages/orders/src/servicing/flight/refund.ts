import { askTogether, type JointAsk } from "@ndc/actors";
import { isGatewayError } from "@ndc/errors";
import { refundPlan, type RefundShare } from "@ndc/payments";
import { REFUND_LEFT_TO_RECONCILER } from "../../cancel/saga";
import type { OrdersContext } from "../../context";
import { writePhase, type OperationRow } from "../../operation/store";
import { crashPoint } from "../../saga/crash-point";
import { notFound, type Order } from "../../state";
import { finishCharge } from "../charge/close";
import { orderAsk } from "../../actor/joint";
import type { ChargePlanCore } from "../charge/operation";

/**
 * What a flight change costing less than the fare paid gives back (decision 0016, "the refund"):
 * the quote's difference (its due, negative: the new fare less the direction as paid, the
 * surcharge refunded and the discount clawed back, plus the change fee the airline keeps), over
 * the captured legs newest first, each share released under `<key>/<legId>`: the cancellation's
 * phased refund (refund-plan.ts, phased-refund.ts), so a retry gives nothing back twice.
 */
export interface ChangeRefund {
  amountMinor: number;
  /** Fixed before the open write, newest leg first. */
  shares: RefundShare[];
  key: string;
}

/** The refund's shares, decided with the rest of the plan (refund_exceeds_captured when the legs cannot cover it). */
export async function planChangeRefund(ctx: OrdersContext, orderId: string, currency: string, amountMinor: number, operationId: string): Promise<ChangeRefund> {
  const legs = await ctx.payments.ledger.legs(orderId);
  return { amountMinor, shares: refundPlan(legs, amountMinor, currency, orderId), key: `${operationId}/refund` };
}

/** What the close of a flight change reads of its plan. */
export type FlightCloseOperation = OperationRow<Omit<ChargePlanCore, "fingerprint"> & { refund?: ChangeRefund }>;

/** Past the commit: a dearer change's legs captured (the add saga's close), a cheaper one's difference refunded. Also the reconciler's way forward. */
export function finishFlightChange(ctx: OrdersContext, op: FlightCloseOperation): Promise<Order> {
  return op.plan.refund ? finishChangeRefund(ctx, op, op.plan.refund) : finishCharge(ctx, op);
}

/**
 * The request's own close. Past the commit the flights ARE changed, whatever the PSP says next:
 * a refund it refuses or does not answer is left to the reconciler (then to staff as
 * reconcile_failed), as the cancellation does, and the seller gets the changed order, whose PAYSUM
 * shows no refund for that leg yet. A dearer change's capture keeps the add saga's answer.
 */
export async function closeFlightChange(ctx: OrdersContext, op: FlightCloseOperation): Promise<Order> {
  try {
    return await finishFlightChange(ctx, op);
  } catch (e) {
    if (!op.plan.refund || !isGatewayError(e) || !REFUND_LEFT_TO_RECONCILER.has(e.code)) throw e;
    return current(ctx, op.orderId);
  }
}

/**
 * The PSP pays each card share back under its key (asked again, it answers its first refund),
 * then ONE write: the shares on the legs and their ledger entries (the airline's own instruments
 * given back here), the order's `refunded` for this change, `done`.
 */
async function finishChangeRefund(ctx: OrdersContext, op: FlightCloseOperation, refund: ChangeRefund): Promise<Order> {
  if (op.status === "done") return current(ctx, op.orderId);
  const { shares, key } = refund;
  await ctx.payments.release.pay(ctx.store.db, shares, key);
  crashPoint("flight_after_refund");
  const now = ctx.clock.now();
  const legs = shares.map((s) => ({ legId: s.legId, amountMinor: s.amount }));
  const asks: JointAsk[] = shares.length ? [orderAsk(ctx, op.orderId, { op: "recordChangeRefund", changeRef: op.plan.changeRef, legs })] : [];
  const [after] = await askTogether(ctx.store, ctx.clock, asks, async (tx) => {
    await ctx.payments.release.record(tx, shares, key, now);
    await writePhase(tx, op.operationId, "done", now, { status: "done" });
  });
  crashPoint("flight_after_close");
  return (after as Order | undefined) ?? current(ctx, op.orderId);
}

async function current(ctx: OrdersContext, orderId: string): Promise<Order> {
  const order = await ctx.orders.ask(orderId, { op: "get" });
  if (!order) throw notFound();
  return order;
}
