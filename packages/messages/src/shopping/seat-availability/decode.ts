import type { Envelope } from "@ndc/xml";
import { list } from "../shared/cursor";
import { decodeCoreRequest } from "../shared/core-request";
import { paxes, requestCursor, responsePreferences } from "../shared/request-common";
import type { SeatAvailabilityRequest } from "./request";

/** IATA_SeatAvailabilityRQ -> SeatAvailabilityRequest. Throws GatewayError request_invalid naming the element at fault. */
export function decodeSeatAvailabilityRQ(envelope: Envelope): SeatAvailabilityRequest {
  const request = requestCursor(envelope);
  return {
    target: decodeCoreRequest(request, "SeatAvailCoreRequest"),
    passengers: paxes(list(request, "Pax")),
    preferences: responsePreferences(request, envelope),
  };
}
