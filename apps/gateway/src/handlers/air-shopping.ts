import { decodeAirShoppingRQ, encodeAirShoppingRS, type MessageHandler } from "@ndc/messages";
import { issueShop, PromotionCriteria, type ShoppingContext } from "@ndc/shopping";
import type { HandlerDeps } from "./deps";

/** The shopping domain's view of the handler deps. */
export function shoppingContext(deps: HandlerDeps): ShoppingContext {
  return { supply: deps.supply, offers: deps.offers, clock: deps.clock, settings: deps.config.shopping, promotionCriteria: new PromotionCriteria(deps.store), ownerCode: deps.config.airline.designator };
}

/**
 * AirShoppingRQ: decode, shop, encode (spec 4.7). The offers' save commits (its fsync off the
 * event loop) while the answer is written; the pipeline sends it once `durable` has settled.
 */
export function airShoppingHandler(deps: HandlerDeps): MessageHandler {
  const ctx = shoppingContext(deps);
  return async ({ envelope, seller }) => {
    const request = decodeAirShoppingRQ(envelope);
    const { view, durable } = await issueShop(ctx, request, seller);
    return { response: encodeAirShoppingRS(view), durable };
  };
}
