import { isGatewayError } from "@ndc/errors";
import type { OrdersContext } from "../context";
import { isHeld, notFound, type Order } from "../state";
import { crashPoint } from "./crash-point";
import { confirmHolds } from "./holds";

/**
 * After the commit point: a booked order gets its holds confirmed and the legs of `changeRef`
 * captured; a held order keeps its holds, and no leg of `changeRef` may stay authorised behind
 * it (a leg whose PSP answer was lost is resolved and voided). Each step is idempotent, so the
 * request and the reconciler run the same code.
 */
export async function finishCommitted(ctx: OrdersContext, orderId: string, sagaId: string, changeRef: string): Promise<Order> {
  let order = await ctx.orders.ask(orderId, { op: "get" });
  if (!order) throw notFound();
  if (order.state === "booked") {
    if (!order.inventoryConfirmed) {
      await confirmHolds(ctx, order.seatHolds, order.partnerHolds);
      order = (await ctx.orders.ask(orderId, { op: "confirmInventory" }))!;
    }
    // The legs recorded as paying this change when it committed: a stable set, so a retried
    // capture asks the ledger the same question under the same key.
    const paying = order.legs.filter((l) => l.changeRef === changeRef && (l.state === "authorised" || l.state === "captured"));
    if (paying.some((l) => l.state === "authorised")) {
      crashPoint("before_capture");
      const legIds = paying.map((l) => l.legId);
      await captureLegs(ctx, orderId, `${sagaId}/capture`, legIds);
      order = (await ctx.orders.ask(orderId, { op: "recordPaymentCaptured", legIds }))!;
    }
  } else if (isHeld(order.state) || order.state === "cancelled") {
    await ctx.payments.voidAll(orderId, `${sagaId}/void`, { changeRef });
  }
  return order;
}

async function captureLegs(ctx: OrdersContext, orderId: string, key: string, legIds: string[]): Promise<void> {
  try {
    await ctx.payments.captureAll(orderId, key, { legIds });
  } catch (e) {
    // Captured already (the answer of an earlier attempt was lost with its process): done.
    if (isGatewayError(e) && e.code === "payment_already_captured") {
      const legs = await ctx.payments.ledger.legs(orderId);
      if (legIds.every((id) => legs.find((l) => l.legId === id)?.state === "captured")) return;
    }
    throw e;
  }
}
