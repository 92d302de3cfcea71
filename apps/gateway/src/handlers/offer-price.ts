import { decodeOfferPriceRQ, encodeOfferPriceRS, type MessageHandler } from "@ndc/messages";
import { price } from "@ndc/shopping";
import type { HandlerDeps } from "./deps";
import { shoppingContext } from "./air-shopping";

/** OfferPriceRQ: decode, re-price, encode (spec 4.5). */
export function offerPriceHandler(deps: HandlerDeps): MessageHandler {
  const ctx = shoppingContext(deps);
  return async ({ envelope, seller }) => {
    const request = decodeOfferPriceRQ(envelope);
    const view = await price(ctx, request, seller);
    return { response: encodeOfferPriceRS(view) };
  };
}
