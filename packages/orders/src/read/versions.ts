import { readEvents } from "@ndc/actors";
import type { OrdersContext } from "../context";
import { ORDER_KIND } from "../actor/kind";
import { evolve, type OrderEvent } from "../actor/events";
import type { Order } from "../state";

/**
 * The order as it was at each of its versions (OrderHistoryRS's before and after), folded from
 * the order actor's journal with the same `evolve` the actor uses. Identity documents are not in
 * the order (only their ids), so no version carries one. Read only for OrderHistoryRQ.
 */
export async function orderVersions(ctx: OrdersContext, orderId: string): Promise<Map<number, Order>> {
  const events = await readEvents<OrderEvent>(ctx.store.db, ORDER_KIND, orderId);
  const out = new Map<number, Order>();
  let order: Order | null = null;
  for (const e of events) {
    order = evolve(order, e.payload);
    if (order) out.set(order.version, order);
  }
  return out;
}
