import type { Envelope } from "@ndc/xml";
import { invalid, opt, req } from "../../shopping/shared/cursor";
import { requestCursor, responsePreferences } from "../../shopping/shared/request-common";
import { offerSelection } from "../shared/decode/offer-selection";
import { orderContacts, orderPassengers } from "../shared/decode/passengers";
import { paymentLegs } from "../shared/decode/payment-legs";
import { pointOfSale } from "../shared/decode/pos";
import { requirePartySize } from "../../shopping/shared/party-size";
import type { OrderCreateRequest } from "./request";

/**
 * IATA_OrderCreateRQ -> OrderCreateRequest. Card data was refused by the transport pipeline
 * (refuseCardDataIn, on the whole tree) before the envelope was decoded, so a card number
 * cannot reach a model, an error text or a log line.
 * Throws GatewayError request_invalid naming the element at fault.
 */
export function decodeOrderCreateRQ(envelope: Envelope): OrderCreateRequest {
  const request = requestCursor(envelope);
  const create = req(request, "CreateOrder");
  const selection = offerSelection(create);
  if (!selection) throw invalid(create.path, "CreateOrder needs AcceptOrderItemList or AcceptSelectedQuotedOfferList.");
  const dataLists = opt(request, "DataLists");
  const passengers = orderPassengers(dataLists);
  requirePartySize(passengers, "Request/DataLists/PaxList/Pax", "request_invalid");
  const out: OrderCreateRequest = {
    selection,
    passengers,
    contacts: orderContacts(dataLists),
    paymentLegs: paymentLegs(request, envelope),
    signed: envelope.signature !== undefined,
    preferences: responsePreferences(request, envelope),
  };
  if (envelope.payload.correlationId) out.correlationId = envelope.payload.correlationId;
  if (envelope.payload.trxId) out.trxId = envelope.payload.trxId;
  const pos = pointOfSale(envelope);
  if (pos) out.pos = pos;
  return out;
}
