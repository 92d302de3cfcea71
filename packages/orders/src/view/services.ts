import type { Order, OrderItem } from "../state";

/**
 * The flight each service of an item is for: a flight item has one service per passenger and
 * flight (its own flights, else every journey's); any other item one per passenger, for its
 * first flight (or none). One rule for OrderViewRS, ServiceDeliveryRS and the closing check.
 */
export function serviceFlightKeys(order: Pick<Order, "journeys">, it: OrderItem): (string | undefined)[] {
  if (it.kind === "flight") return it.flightKeys ?? order.journeys.flatMap((j) => j.flightKeys);
  return [undefined];
}
