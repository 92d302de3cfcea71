import type { Envelope } from "@ndc/xml";
import { invalid, list, req, reqText, type Cursor } from "../../shopping/shared/cursor";
import { responsePreferences } from "../../shopping/shared/request-common";
import type { ResponsePreferences } from "../../shopping/shared/request-types";
import { refuseIdentityDocs } from "../shared/decode/identity-doc";
import { selectedOffer, type QuotedOfferRef } from "../shared/decode/offer-selection";

/**
 * OrderQuoteRQ's change form (issue 9 item 9): Payload/ExistingOrder names the booked order,
 * Payload/SelectedOffers the items of an offer listed or reshopped for it (extras, or one seat
 * with SelectedSeat), to be priced into a firm quote.
 */
export interface OrderQuoteRequest {
  orderId: string;
  ownerCode: string;
  offers: QuotedOfferRef[];
  preferences: ResponsePreferences;
}

/**
 * IATA_OrderQuoteRQ -> OrderQuoteRequest. 24.4's root carries Payload, not Request: the envelope
 * reads the root by its own form (root-forms.ts) and hands Payload over as the content element.
 */
export function decodeOrderQuoteRQ(envelope: Envelope): OrderQuoteRequest {
  refuseIdentityDocs(envelope.root);
  const el = envelope.request;
  if (!el) throw invalid("Payload", "Payload is required.");
  const payload: Cursor = { el, path: "Payload" };
  const existing = req(payload, "ExistingOrder");
  const offers = list(payload, "SelectedOffers").map(selectedOffer);
  if (offers.length === 0) throw invalid("Payload/SelectedOffers", "SelectedOffers is required: the items to quote for the order.");
  return { orderId: reqText(existing, "OrderID"), ownerCode: reqText(existing, "OwnerCode"), offers, preferences: responsePreferences(payload, envelope) };
}
