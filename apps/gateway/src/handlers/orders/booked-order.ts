import type { BookedOrderLookup } from "@ndc/shopping";
import type { HandlerDeps } from "../deps";

/**
 * The booked-order forms of ServiceListRQ and SeatAvailabilityRQ read an order through this:
 * OrdersService.retrieve checks ownership (another seller's order is order_not_found, exactly
 * like a missing one); shopping gets only the flights, the passengers' ids and types, and the
 * order's seat items (never names or documents).
 */
export function bookedOrderLookup(deps: Pick<HandlerDeps, "orders">): BookedOrderLookup {
  return async (orderId, owner) => {
    const o = await deps.orders.retrieve(orderId, owner);
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
  };
}
