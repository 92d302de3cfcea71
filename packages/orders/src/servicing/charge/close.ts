import { askTogether, type JointAsk } from "@ndc/actors";
import type { OrdersContext } from "../../context";
import { writePhase } from "../../operation/store";
import { crashPoint } from "../../saga/crash-point";
import { notFound, type Order } from "../../state";
import { voidedByCancellation } from "../../cancel/pending-charges";
import { orderAsk } from "../../actor/joint";
import type { ChargeOperation } from "./operation";

/**
 * A post-sale charge's close (and the reconciler's way forward past the commit): the PSP
 * captures the change's legs under their keys, then one write records the captures and `done`.
 * Run again, the same keys find the first captures; a done change answers the order as it is.
 * An order cancelled since the commit has the change's legs voided instead.
 */
export async function finishCharge(ctx: OrdersContext, op: ChargeOperation): Promise<Order> {
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
