import { decodeSeatAvailabilityRQ, encodeSeatAvailabilityRS, type MessageHandler } from "@ndc/messages";
import { SeatAvailability } from "@ndc/shopping";
import type { HandlerDeps } from "./deps";

/** SeatAvailabilityRQ (spec 4.6): decode, seat maps from the domain, encode. */
export function seatAvailabilityHandler(deps: HandlerDeps): MessageHandler {
  const seats = seatAvailabilityOf(deps);
  return async ({ envelope, seller }) => {
    const request = decodeSeatAvailabilityRQ(envelope);
    const view = await seats.seatMaps(request, { clientId: seller.clientId, agencyId: seller.agencyId });
    return { response: encodeSeatAvailabilityRS(view) };
  };
}

/** The seat-map domain with the gateway's booked orders and live inventory (also OrderReshopRQ's seat form). */
export function seatAvailabilityOf(deps: HandlerDeps): SeatAvailability {
  return new SeatAvailability({
    ...deps,
    offerTtlMinutes: deps.config.shopping.offerTtlMinutes,
    // The booked-order form (OrderRequest): the order's flights, with its own seats marked.
    orders: (orderId, owner) => deps.orders.bookedOrder(orderId, owner),
    inventory: {
      async takenSeats(flightKey) {
        const a = await deps.inventory.seatAvailability(flightKey);
        return new Set(a.seats.filter((s) => s.status === "held" || s.status === "sold").map((s) => s.seatId));
      },
    },
  });
}
