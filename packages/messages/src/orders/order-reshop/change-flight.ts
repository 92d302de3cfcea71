import { decodeFlightRequest } from "../../shopping/air-shopping/flight-request";
import { invalid, list, opt, reqText, type Cursor } from "../../shopping/shared/cursor";
import type { ReshopForm } from "./request";

/**
 * The flight-change form of OrderReshopRQ (24.4 ServiceOrderType: AddOfferItems and
 * DeleteOrderItem together): DeleteOrderItem/OrderItemRefID naming the flight items of ONE
 * direction of the order, and AddOfferItems/FlightRequest with ONE OriginDestCriteria (origin,
 * destination, date) for the journey replacing it. No OrderCriteria: a seat or extras are the
 * other forms, and are not mixed with a flight change.
 */
export function changeFlight(serviceOrder: Cursor, add: Cursor, deletes: Cursor[]): Extract<ReshopForm, { form: "changeFlight" }> {
  if (opt(add, "OrderCriteria")) throw invalid(`${add.path}/OrderCriteria`, "A flight change names no ServiceCriteria or SeatCriteria: change flights and add extras in separate messages.");
  const flights = decodeFlightRequest(add).originDestinations;
  if (flights.length !== 1) throw invalid(`${add.path}/FlightRequest`, "A flight change replaces one direction: one OriginDestCriteria per message.");
  const f = flights[0]!;
  return {
    form: "changeFlight",
    orderItemIds: deletes.map((d) => reqText(d, "OrderItemRefID")),
    flight: { origin: f.origin, destination: f.destination, date: f.departureDate },
    at: `${serviceOrder.path}/DeleteOrderItem`,
  };
}

/** The DeleteOrderItem elements of a ServiceOrder. */
export const deleteItems = (serviceOrder: Cursor | undefined): Cursor[] => list(serviceOrder, "DeleteOrderItem");
