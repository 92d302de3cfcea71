import type { Envelope } from "@ndc/xml";
import { list, opt } from "../shared/cursor";
import { paxes, requestCursor, responsePreferences, serviceCriteria } from "../shared/request-common";
import { decodeFlightRequest } from "./flight-request";
import type { AirShoppingRequest, OriginDestCriterion } from "./request";

function journeyType(ods: OriginDestCriterion[]): AirShoppingRequest["journeyType"] {
  if (ods.length === 1) return "OneWay";
  const [out, back] = ods;
  if (ods.length === 2 && out!.origin === back!.destination && out!.destination === back!.origin) return "Return";
  return "MultiCity";
}

/** IATA_AirShoppingRQ -> AirShoppingRequest. Throws GatewayError request_invalid naming the element at fault. */
export function decodeAirShoppingRQ(envelope: Envelope): AirShoppingRequest {
  const request = requestCursor(envelope);
  const { form, originDestinations } = decodeFlightRequest(request);
  return {
    form,
    journeyType: journeyType(originDestinations),
    originDestinations,
    passengers: paxes(list(opt(request, "PaxList"), "Pax")),
    serviceCriteria: serviceCriteria(request),
    preferences: responsePreferences(request, envelope),
  };
}
