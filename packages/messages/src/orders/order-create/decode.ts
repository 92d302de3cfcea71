import type { Envelope } from "@ndc/xml";
import { invalid, opt, req } from "../../shopping/shared/cursor";
import { requestCursor, responsePreferences } from "../../shopping/shared/request-common";
import { offerSelection } from "../shared/decode/offer-selection";
import { orderContacts, orderPassengers } from "../shared/decode/passengers";
import { paymentFunctions } from "../shared/decode/payment-legs";
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
  const payment = paymentFunctions(request, envelope);
  const out: OrderCreateRequest = {
    selection,
    passengers,
    contacts: orderContacts(dataLists),
    paymentLegs: payment.legs,
    signed: envelope.signature !== undefined,
    preferences: responsePreferences(request, envelope),
  };
  if (payment.intended) {
    const { at, ...intended } = payment.intended;
    // The method is named for this order's offers: an association with any other is a mistake to say, not to keep.
    const offers = selection.form === "AcceptSelectedQuotedOfferList" ? new Set(selection.quotedOffers.map((o) => o.offerId)) : undefined;
    const stray = offers ? intended.offerIds.findIndex((id) => !offers.has(id)) : -1;
    if (stray >= 0) throw invalid(`${at}/OfferAssociation[${stray + 1}]/OfferRefID`, "OfferAssociation names an offer this request does not accept.");
    out.intendedPayment = intended;
  }
  if (envelope.payload.correlationId) out.correlationId = envelope.payload.correlationId;
  if (envelope.payload.trxId) out.trxId = envelope.payload.trxId;
  const pos = pointOfSale(envelope);
  if (pos) out.pos = pos;
  return out;
}
