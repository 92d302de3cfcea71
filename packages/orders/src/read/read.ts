import { eq, sql } from "drizzle-orm";
import { preparedOnce, tables } from "@ndc/store";
import type { OrdersContext } from "../context";
import { assertOwner, notFound, type HistoryEntry, type Order, type Seller } from "../state";

/** Prepared once per connection: every OrderRetrieve, OrderHistory and OrderList row asks it. */
const ownerOf = preparedOnce((db) =>
  db.select({ agencyId: tables.orders.ownerAgencyId }).from(tables.orders).where(eq(tables.orders.orderId, sql.placeholder("orderId"))).limit(1).prepare(),
);

/**
 * OrderRetrieve: the seller's own order. A missing order and another seller's order fail alike
 * (order_not_found). An order whose actor is not in memory is looked up in the index first, so
 * an unknown id never wakes an actor; a resident one already knows its owner, so the index read
 * is skipped. Either way the answer comes from the actor's mailbox, after any command in flight.
 */
export async function retrieve(ctx: OrdersContext, orderId: string, seller: Seller): Promise<Order> {
  if (!ctx.orders.peek(orderId)?.value) {
    const rows = await ownerOf(ctx.store.db).all({ orderId });
    if (!rows[0] || rows[0].agencyId !== seller.agencyId) throw notFound();
  }
  return assertOwner(await ctx.orders.ask(orderId, { op: "get" }), seller);
}

/** OrderHistory: each version with when, what kind of change and which fields changed. */
export async function history(ctx: OrdersContext, orderId: string, seller: Seller): Promise<HistoryEntry[]> {
  return (await retrieve(ctx, orderId, seller)).history;
}
