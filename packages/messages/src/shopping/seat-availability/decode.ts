import type { Envelope } from "@ndc/xml";
import { list } from "../shared/cursor";
import { decodeCoreRequest } from "../shared/core-request";
import { requirePartySize } from "../shared/party-size";
import { paxes, requestCursor, responsePreferences } from "../shared/request-common";
import type { SeatAvailabilityRequest } from "./request";

/** IATA_SeatAvailabilityRQ -> SeatAvailabilityRequest. Throws GatewayError request_invalid naming the element at fault. */
export function decodeSeatAvailabilityRQ(envelope: Envelope): SeatAvailabilityRequest {
  const request = requestCursor(envelope);
  const passengers = paxes(list(request, "Pax"));
  // The same party-size rule as AirShopping: a larger party cannot be shopped, so it has no seat map or services.
  requirePartySize(passengers, "Request/Pax", "shopping_criteria_invalid");
  return {
    target: decodeCoreRequest(request, "SeatAvailCoreRequest"),
    passengers,
    preferences: responsePreferences(request, envelope),
  };
}
