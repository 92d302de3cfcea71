import { decodeAirShoppingRQ, encodeAirShoppingRS, type MessageHandler } from "@ndc/messages";
import { shop, type ShoppingContext } from "@ndc/shopping";
import type { HandlerDeps } from "./deps";

/** The shopping domain's view of the handler deps. */
export function shoppingContext(deps: HandlerDeps): ShoppingContext {
  return { supply: deps.supply, offers: deps.offers, clock: deps.clock, settings: deps.config.shopping, ownerCode: deps.config.airline.designator };
}

/** AirShoppingRQ: decode, shop, encode (spec 4.7). */
export function airShoppingHandler(deps: HandlerDeps): MessageHandler {
  const ctx = shoppingContext(deps);
  return async ({ envelope, seller }) => {
    const request = decodeAirShoppingRQ(envelope);
    const view = await shop(ctx, request, seller);
    return { response: encodeAirShoppingRS(view) };
  };
}
