import type { Envelope } from "@ndc/xml";
import { list } from "../shared/cursor";
import { decodeCoreRequest } from "../shared/core-request";
import { requirePartySize } from "../shared/party-size";
import { paxes, requestCursor, responsePreferences, serviceCriteria } from "../shared/request-common";
import type { ServiceListRequest } from "./request";

/** IATA_ServiceListRQ -> ServiceListRequest. Throws GatewayError request_invalid naming the element at fault. */
export function decodeServiceListRQ(envelope: Envelope): ServiceListRequest {
  const request = requestCursor(envelope);
  const passengers = paxes(list(request, "Pax"));
  // The same party-size rule as AirShopping: a larger party cannot be shopped, so it has no seat map or services.
  requirePartySize(passengers, "Request/Pax", "shopping_criteria_invalid");
  return {
    target: decodeCoreRequest(request, "ServiceListCoreRequest"),
    serviceCriteria: serviceCriteria(request),
    passengers,
    preferences: responsePreferences(request, envelope),
  };
}
