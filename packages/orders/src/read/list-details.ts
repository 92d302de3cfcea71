import type { Flight } from "@ndc/supply";
import type { OrdersContext } from "../context";
import type { Seller } from "../state";
import { list, type OrderListFilters, type OrderListPage, type OrderSummary } from "./list";
import { retrieve } from "./read";

/**
 * A listed order with where its trip goes: the first flight of its first journey (the trip's
 * departure) and the last flight of that journey (its destination, also for a return), as the
 * schedule has them. Read from the order: the index row holds no stations.
 */
export interface ListedOrder {
  summary: OrderSummary;
  departure?: Flight;
  arrival?: Flight;
}

export interface OrderListDetails {
  orders: ListedOrder[];
  /** The cursor of the next page, absent on the last. */
  next?: string;
}

/** OrderList with each order's first departure and arrival: what OrderListRS shows of it. */
export async function listDetails(ctx: OrdersContext, seller: Seller, filters?: OrderListFilters, page?: OrderListPage): Promise<OrderListDetails> {
  const result = await list(ctx, seller, filters, page);
  const orders = await Promise.all(result.orders.map((s) => retrieve(ctx, s.orderId, seller)));
  return {
    orders: result.orders.map((summary, i) => {
      const first = orders[i]?.journeys[0];
      const departure = first ? ctx.supply.flight(first.flightKeys[0]!) : undefined;
      const arrival = first ? ctx.supply.flight(first.flightKeys[first.flightKeys.length - 1]!) : undefined;
      return { summary, ...(departure ? { departure } : {}), ...(arrival ? { arrival } : {}) };
    }),
    ...(result.next ? { next: result.next } : {}),
  };
}
