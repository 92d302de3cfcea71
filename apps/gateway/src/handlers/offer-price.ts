import { decodeOfferPriceRQ, encodeOfferPriceRS, type MessageHandler } from "@ndc/messages";
import { issuePrice } from "@ndc/shopping";
import type { HandlerDeps } from "./deps";
import { shoppingContext } from "./air-shopping";

/** OfferPriceRQ: decode, re-price, encode (spec 4.5); sent once the priced offer is durable (as AirShoppingRQ). */
export function offerPriceHandler(deps: HandlerDeps): MessageHandler {
  const ctx = shoppingContext(deps);
  return async ({ envelope, seller }) => {
    const request = decodeOfferPriceRQ(envelope);
    const { view, durable } = await issuePrice(ctx, request, seller);
    return { response: encodeOfferPriceRS(view), durable };
  };
}
