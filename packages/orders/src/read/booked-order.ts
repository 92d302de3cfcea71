import type { BookedOrder } from "@ndc/shopping";
import type { OrdersContext } from "../context";
import type { Seller } from "../state";
import { retrieve } from "./read";

/**
 * What the booked-order forms of ServiceListRQ and SeatAvailabilityRQ may read of an order:
 * retrieve checks ownership (another seller's order is order_not_found, exactly like a missing
 * one); shopping gets only the flights, the passengers' ids and types, and the order's seat
 * items (never names or documents).
 */
export async function bookedOrder(ctx: OrdersContext, orderId: string, seller: Seller): Promise<BookedOrder> {
  const o = await retrieve(ctx, orderId, seller);
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
