import { decodeFlightRequest } from "../../shopping/air-shopping/flight-request";
import { invalid, list, opt, reqText, type Cursor } from "../../shopping/shared/cursor";
import type { ReshopForm } from "./request";

/**
 * The flight-change form of OrderReshopRQ (24.4 ServiceOrderType: AddOfferItems and
 * DeleteOrderItem together): DeleteOrderItem/OrderItemRefID naming the order's flight items, and
 * AddOfferItems/FlightRequest with one OriginDestCriteria (origin, destination, date) per
 * direction replaced: one for a direction, two for both directions of a return changed together
 * (as IATA's examples write a return). No OrderCriteria: a seat or extras are the other forms,
 * and are not mixed with a flight change.
 */
export function changeFlight(serviceOrder: Cursor, add: Cursor, deletes: Cursor[]): Extract<ReshopForm, { form: "changeFlight" }> {
  if (opt(add, "OrderCriteria")) throw invalid(`${add.path}/OrderCriteria`, "A flight change names no ServiceCriteria or SeatCriteria: change flights and add extras in separate messages.");
  const flights = decodeFlightRequest(add).originDestinations;
  if (flights.length === 0) throw invalid(`${add.path}/FlightRequest`, "A flight change names the journey replacing each direction: one OriginDestCriteria per direction.");
  return {
    form: "changeFlight",
    orderItemIds: deletes.map((d) => reqText(d, "OrderItemRefID")),
    flights: flights.map((f) => ({ origin: f.origin, destination: f.destination, date: f.departureDate })),
    at: `${serviceOrder.path}/DeleteOrderItem`,
  };
}

/** The DeleteOrderItem elements of a ServiceOrder. */
export const deleteItems = (serviceOrder: Cursor | undefined): Cursor[] => list(serviceOrder, "DeleteOrderItem");
