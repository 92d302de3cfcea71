import { GatewayError } from "@ndc/errors";
import { decodeOrderRetrieveRQ, type MessageHandler } from "@ndc/messages";
import type { HandlerDeps } from "./deps";
import { orderViewResult, storedViewResult } from "./order-view-cache";

/**
 * OrderRetrieveRQ (spec 4.7): the seller's own order by OrderID. Another seller's order and a
 * missing one both end in the domain's order_not_found, thrown before anything about the
 * order is read, so the two answers cannot differ (spec 5.7).
 */
export function orderRetrieveHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller }) => {
    const { order: key, languages } = decodeOrderRetrieveRQ(envelope);
    // Another airline's order is never ours: answered like a missing order, not as an error of its own.
    if (key.ownerCode !== deps.config.airline.designator) throw new GatewayError("order_not_found");
    // An order not in memory is answered from its stored view (one read) when it has one that
    // holds now, and the request names no content language (the stored view is the default's).
    const found = await deps.orders.retrieveView(key.orderId, { clientId: seller.clientId, agencyId: seller.agencyId }, { languages });
    return "stored" in found ? storedViewResult(found.stored) : orderViewResult(found.details, deps, languages);
  };
}
