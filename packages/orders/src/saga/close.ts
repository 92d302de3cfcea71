import { askTogether, type JointAsk } from "@ndc/actors";
import type { OrdersContext } from "../context";
import { writePhase } from "../operation/store";
import type { Order } from "../state";
import { crashPoint } from "./crash-point";
import { orderAsk } from "../actor/joint";

/**
 * The close phase of a phased operation (OrderCreate's sale, a payment retry): the PSP captures
 * each leg of `changeRef` still authorised under `<key>/<leg>`, then ONE write records the
 * captures on the legs and the order and marks the operation `done`. Run again after a crash it
 * asks the PSP under the same keys, which answers the first capture again.
 */
export async function closeCaptures(ctx: OrdersContext, operationId: string, order: Order, changeRef: string, key: string): Promise<Order> {
  const legIds = order.legs.filter((l) => l.changeRef === changeRef && l.state === "authorised").map((l) => l.legId);
  if (legIds.length) {
    const legs = (await ctx.payments.ledger.legs(order.orderId)).filter((l) => legIds.includes(l.legId));
    crashPoint("before_capture");
    await ctx.payments.sale.capture(legs, key);
    crashPoint("after_capture");
  }
  const now = ctx.clock.now();
  const asks: JointAsk[] = legIds.length ? [orderAsk(ctx, order.orderId, { op: "recordPaymentCaptured", legIds })] : [];
  const [after] = await askTogether(ctx.store, ctx.clock, asks, async (tx) => {
    await ctx.payments.sale.recordCaptures(tx, order.orderId, legIds, key, now);
    await writePhase(tx, operationId, "done", now, { status: "done" });
  });
  crashPoint("after_close");
  return (after as Order | undefined) ?? order;
}
