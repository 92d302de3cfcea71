import { GatewayError } from "@ndc/errors";
import type { Envelope } from "@ndc/xml";
import { invalid, opt, optText, req } from "../../shopping/shared/cursor";
import { requestCursor } from "../../shopping/shared/request-common";
import { orderKey, type OrderKey } from "../shared/decode/order-key";

/**
 * The decoded IATA_OrderRulesRQ: its RulesCoreRequest is a choice (24.4 RulesCoreRequestType)
 * of OrderStructureKey, a booked order, or FareRef, a fare before booking. The gateway prices
 * offers, not fare bases, so FareRef is read by the OfferID it carries as FareRefText (spec 4.7).
 */
export type OrderRulesRequest = { form: "order"; order: OrderKey } | { form: "offer"; offerId: string };

const FARE_REF_TEXT = "Request/RulesCoreRequest/FareRef/FareRefText";

export function decodeOrderRulesRQ(envelope: Envelope): OrderRulesRequest {
  const core = req(requestCursor(envelope), "RulesCoreRequest");
  const key = opt(core, "OrderStructureKey");
  const fare = opt(core, "FareRef");
  if (key && fare) throw invalid(core.path, "RulesCoreRequest holds OrderStructureKey or FareRef, not both.");
  if (key) return { form: "order", order: orderKey(key) };
  if (!fare) throw invalid(core.path, "RulesCoreRequest needs OrderStructureKey (a booked order) or FareRef (an offer).");
  const offerId = optText(fare, "FareRefText");
  // A fare basis names no offer: its price, brand and flights are unknown, so nothing can be stated.
  if (!offerId) throw new GatewayError("missing_offer_id", { detail: "Send the OfferID as FareRefText.", element: FARE_REF_TEXT });
  return { form: "offer", offerId };
}
