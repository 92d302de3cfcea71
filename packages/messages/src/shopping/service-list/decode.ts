import type { Envelope } from "@ndc/xml";
import { list } from "../shared/cursor";
import { decodeCoreRequest } from "../shared/core-request";
import { paxes, requestCursor, responsePreferences, serviceCriteria } from "../shared/request-common";
import type { ServiceListRequest } from "./request";

/** IATA_ServiceListRQ -> ServiceListRequest. Throws GatewayError request_invalid naming the element at fault. */
export function decodeServiceListRQ(envelope: Envelope): ServiceListRequest {
  const request = requestCursor(envelope);
  return {
    target: decodeCoreRequest(request, "ServiceListCoreRequest"),
    serviceCriteria: serviceCriteria(request),
    passengers: paxes(list(request, "Pax")),
    preferences: responsePreferences(request, envelope),
  };
}
