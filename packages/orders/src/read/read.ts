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
 * (order_not_found), and the index is asked first so an unknown id never wakes an actor.
 */
export async function retrieve(ctx: OrdersContext, orderId: string, seller: Seller): Promise<Order> {
  const rows = await ownerOf(ctx.store.db).all({ orderId });
  if (!rows[0] || rows[0].agencyId !== seller.agencyId) throw notFound();
  return assertOwner(await ctx.orders.ask(orderId, { op: "get" }), seller);
}

/** OrderHistory: each version with when, what kind of change and which fields changed. */
export async function history(ctx: OrdersContext, orderId: string, seller: Seller): Promise<HistoryEntry[]> {
  return (await retrieve(ctx, orderId, seller)).history;
}
