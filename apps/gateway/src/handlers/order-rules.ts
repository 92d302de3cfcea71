import { GatewayError } from "@ndc/errors";
import { decodeOrderRulesRQ, encodeOrderRulesRS, orderRulesViewOf, type MessageHandler } from "@ndc/messages";
import type { HandlerDeps } from "./deps";

/**
 * OrderRulesRQ (spec 4.7, SHPOR1), both forms: a booked order's frozen conditions, fees by band,
 * cutoffs and live eligibility (OrderStructureKey), or an offer's (FareRef with the OfferID as
 * FareRefText). Another seller's order, or another airline's, is answered as a missing one.
 */
export function orderRulesHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller }) => {
    const request = decodeOrderRulesRQ(envelope);
    const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
    let rules;
    if (request.form === "order") {
      if (request.order.ownerCode !== deps.config.airline.designator) throw new GatewayError("order_not_found");
      rules = await deps.orders.rules(request.order.orderId, owner);
    } else {
      rules = await deps.orders.offerRules(request.offerId, owner);
    }
    return { response: encodeOrderRulesRS(orderRulesViewOf(rules, deps.config.airline.designator)) };
  };
}
