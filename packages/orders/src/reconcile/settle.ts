import { askTogether, type JointAsk } from "@ndc/actors";
import { GatewayError } from "@ndc/errors";
import type { PaymentLeg } from "@ndc/payments";
import type { StoreDb } from "@ndc/store";
import type { OrdersContext } from "../context";
import { SALE_CHANGE_REF, type CreatePlan } from "../create/plan";
import { createCaptureKey } from "../create/saga";
import { writePhase, type OperationRow } from "../operation/store";
import { retryCaptureKey, retryCommitted, type RetryPlan } from "../payment/retry";
import type { ChargeOperation } from "../servicing/charge/operation";
import type { Order } from "../state";
import { orderAsk } from "../actor/joint";
import { markResolved } from "./failures";

/** What staff may do with a reconcile_failed item's authorised legs from the console. */
export type StaffSettlement = "capture" | "void";

/** The change an operation pays for, the key its legs are captured under, and whether the order recorded the change. */
interface Paying {
  changeRef: string;
  captureKey: string;
  committed: boolean;
}

/**
 * The payment side of an operation: a sale (its own capture key per run), a payment retry, a
 * post-sale charge (extras, seats, a dearer flight change). A cancellation, a cheaper flight
 * change (both refunds) and a rename take no payment: nothing to capture or void.
 */
function payingOf(op: OperationRow<unknown>, order: Order | null): Paying | undefined {
  const booked = order?.state === "booked";
  switch (op.kind) {
    case "order_create":
      return { changeRef: SALE_CHANGE_REF, captureKey: createCaptureKey(op as OperationRow<CreatePlan>), committed: booked };
    case "payment_retry": {
      const plan = (op as OperationRow<RetryPlan>).plan;
      return { changeRef: plan.changeRef, captureKey: retryCaptureKey(op as OperationRow<RetryPlan>), committed: booked && retryCommitted(order, plan) };
    }
    case "order_add":
    case "order_change_flight": {
      const plan = (op as ChargeOperation & OperationRow<{ refund?: unknown }>).plan;
      if (plan.refund) return undefined;
      return { changeRef: plan.changeRef, captureKey: `${op.operationId}/capture`, committed: booked && !!order?.charges?.some((c) => c.changeRef === plan.changeRef) };
    }
    default:
      return undefined;
  }
}

/**
 * Staff resolve a reconcile_failed item by capturing or voiding the legs of the change its
 * operation pays for (spec 3 "Reconciliation of an unfinished leg"), under the operation's lock:
 *
 * - A leg left `authorising` (its PSP answer lost) is asked about by key first, as the reconciler does.
 * - capture: only a change the order recorded, on a booked order (the reconciler voids the rest):
 *   otherwise order_state_invalid. The PSP captures under the key the operation's own close uses
 *   (`<run>/capture/<leg>`), so a capture the PSP made for an earlier attempt, or for a staff
 *   retry whose answer was lost, is answered again and never made twice.
 * - void: every authorised leg, under `<operation>/staff-void/<leg>`: the customer's money is
 *   released whatever the change (a committed change is then given without payment: staff's call,
 *   with their note).
 *
 * Then ONE write: the ledger steps (with a settlement leg's clearance), the order's captured legs,
 * the operation closed (`done`, or `compensated` with resolved_by_staff for a void, so the seller's
 * same ids never charge again), the item resolved, and `alsoInTransaction` (the staff audit row).
 * A leg in a state where the step makes no sense is refused naming `resolution`.
 */
export async function settleReconcileFailed(
  ctx: OrdersContext,
  operationId: string,
  action: StaffSettlement,
  by: string,
  note: string,
  alsoInTransaction?: (tx: StoreDb) => Promise<void>,
): Promise<PaymentLeg[]> {
  return ctx.operationLock.run(operationId, async () => {
    const op = await ctx.operations.load<unknown>(operationId);
    if (!op) throw new GatewayError("request_invalid", { detail: `No open reconcile_failed item ${operationId}.`, element: "operationId" });
    const order = await ctx.orders.ask(op.orderId, { op: "get" });
    const paying = payingOf(op, order);
    if (!paying) throw new GatewayError("payment_leg_state_invalid", { detail: `An ${op.kind} item takes no payment (it gives money back or changes none): retry it or close it.`, element: "resolution" });
    const mine = (l: PaymentLeg) => l.changeRef === paying.changeRef;
    for (const l of await ctx.payments.ledger.legs(op.orderId)) if (mine(l) && l.state === "authorising") await ctx.payments.ledger.resolveUnknown(l.legId);
    const legs = (await ctx.payments.ledger.legs(op.orderId)).filter((l) => mine(l) && l.state !== "declined");
    const open = legs.filter((l) => l.state === "authorised");
    if (open.length === 0) {
      const states = legs.map((l) => l.state).join(", ") || "none";
      if (action === "capture" && legs.some((l) => l.state === "captured" || l.state === "refunded")) throw new GatewayError("payment_already_captured", { detail: `The legs are ${states}.`, element: "resolution" });
      if (action === "capture" && legs.some((l) => l.state === "voided")) throw new GatewayError("payment_leg_voided", { detail: `The legs are ${states}.`, element: "resolution" });
      throw new GatewayError("payment_leg_state_invalid", { detail: `No leg of this change is authorised (legs: ${states}); only an authorised leg is captured or voided.`, element: "resolution" });
    }
    if (action === "capture" && !paying.committed)
      throw new GatewayError("order_state_invalid", { detail: "The change these legs pay for was not made, or the order is no longer booked: void them instead.", element: "resolution" });
    const key = action === "capture" ? paying.captureKey : `${operationId}/staff-void`;
    if (action === "capture") await ctx.payments.sale.capture(open, key);
    else await ctx.payments.sale.voidAtPsp(open, key);
    const legIds = open.map((l) => l.legId);
    const known = order ? legIds.filter((id) => order.legs.some((l) => l.legId === id)) : [];
    const asks: JointAsk[] = action === "capture" && known.length ? [orderAsk(ctx, op.orderId, { op: "recordPaymentCaptured", legIds: known })] : [];
    const now = ctx.clock.now();
    await askTogether(ctx.store, ctx.clock, asks, async (tx) => {
      await markResolved(tx, operationId, action === "capture" ? "captured" : "voided", by, note, now);
      if (action === "capture") {
        await ctx.payments.sale.recordCaptures(tx, op.orderId, legIds, key, now);
        await writePhase(tx, operationId, "done", now, { status: "done" });
      } else {
        await ctx.payments.sale.recordVoids(tx, op.orderId, legIds, key, now);
        await writePhase(tx, operationId, op.phase, now, { status: "compensated", errorCode: "resolved_by_staff" });
      }
      await alsoInTransaction?.(tx);
    });
    return (await ctx.payments.ledger.legs(op.orderId)).filter((l) => legIds.includes(l.legId));
  });
}
