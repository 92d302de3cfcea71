import type { BookedOrder } from "@ndc/shopping";
import type { OrdersContext } from "../context";
import type { Order, Seller } from "../state";
import { airlineRetrieve } from "./airline";
import { retrieve } from "./read";

/**
 * What the booked-order forms of ServiceListRQ and SeatAvailabilityRQ may read of an order:
 * retrieve checks ownership (another seller's order is order_not_found, exactly like a missing
 * one); shopping gets only the flights, the passengers' ids and types, and the order's seat
 * items (never names or documents).
 */
export async function bookedOrder(ctx: OrdersContext, orderId: string, seller: Seller): Promise<BookedOrder> {
  return bookedOrderOf(await retrieve(ctx, orderId, seller));
}

/** The same shape of any order, for the airline's staff (airlineRetrieve: no owner check; callers check the staff right). */
export async function bookedOrderAsStaff(ctx: OrdersContext, orderId: string): Promise<BookedOrder> {
  return bookedOrderOf(await airlineRetrieve(ctx, orderId));
}

function bookedOrderOf(o: Order): BookedOrder {
  return {
    orderId: o.orderId,
    state: o.state,
    currency: o.currency,
    passengers: o.passengers.map((p) => ({ paxId: p.paxId, ptc: p.ptc })),
    journeys: o.journeys,
    seats: o.items.flatMap((it) =>
      it.kind === "seat" && it.ref && it.flightKeys?.[0] ? [{ orderItemId: it.orderItemId, flightKey: it.flightKeys[0], seatId: it.ref, paxIds: it.paxIds }] : [],
    ),
  };
}
