import { GatewayError } from "@ndc/errors";
import type { RequestedFlight } from "../model";
import { flightKey, type Flight, type Supply } from "@ndc/supply";

/**
 * The flights a PaxSegmentRequest names, found by marketing carrier, number and local
 * departure date, and checked against the stated airports: a flight that does not exist (or
 * not between those airports) is flight_not_found.
 */
export function requestedFlights(supply: Supply, segments: readonly RequestedFlight[]): { paxSegmentId: string; flight: Flight; cabinCode?: string }[] {
  return segments.map((s, i) => {
    const number = Number(s.flightNumber);
    const flight = Number.isInteger(number) ? supply.flight(flightKey({ carrier: s.marketingCarrier.toUpperCase(), number, date: s.departureDate })) : undefined;
    if (!flight || flight.origin !== s.origin.toUpperCase() || flight.destination !== s.destination.toUpperCase()) {
      throw new GatewayError("flight_not_found", {
        detail: `${s.marketingCarrier.slice(0, 3)}${s.flightNumber.slice(0, 4)} ${s.origin.slice(0, 3)}-${s.destination.slice(0, 3)} on ${s.departureDate.slice(0, 10)}.`,
        element: `Request/SeatAvailCoreRequest/PaxSegmentRequest/PaxSegment[${i + 1}]`,
      });
    }
    return { paxSegmentId: s.paxSegmentId, flight, ...(s.cabinCode ? { cabinCode: s.cabinCode } : {}) };
  });
}
