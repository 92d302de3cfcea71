import { and, eq, inArray, lte } from "drizzle-orm";
import { tables } from "@ndc/store";
import type { OrdersContext } from "../context";
import { releaseHolds } from "../saga/holds";

/**
 * Held orders past their payment time limit are cancelled by their own actor (spec 3: payment
 * expired), then their holds released and any leg still authorised voided. Safe to run again:
 * a cancelled order is not found by the query, and its holds lapse at the time limit anyway.
 * Returns the ids of the orders cancelled. `owner`: only that seller client's orders (its sandbox clock's run).
 */
export async function expireUnpaid(ctx: OrdersContext, now: number, owner?: string): Promise<string[]> {
  const due = await ctx.store.db
    .select({ orderId: tables.orders.orderId })
    .from(tables.orders)
    .where(and(inArray(tables.orders.state, ["held_unpaid", "held_payment_declined"]), lte(tables.orders.paymentTimeLimit, now), owner === undefined ? undefined : eq(tables.orders.ownerClientId, owner)));
  const cancelled: string[] = [];
  for (const { orderId } of due) {
    const order = await ctx.orders.ask(orderId, { op: "expireUnpaid", now });
    if (order?.state !== "cancelled") continue;
    await releaseHolds(ctx, order.seatHolds, order.partnerHolds);
    await ctx.payments.voidAll(orderId, `${orderId}/expired/void`);
    cancelled.push(orderId);
  }
  return cancelled;
}
