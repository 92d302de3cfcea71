import { GatewayError } from "@ndc/errors";
import { decodeOrderHistoryRQ, encodeOrderHistoryRS, orderHistoryViewOf, type MessageHandler } from "@ndc/messages";
import type { HandlerDeps } from "./deps";

/** OrderHistoryRQ (spec 4.7, 5.7): each version of the caller's own order, oldest first. */
export function orderHistoryHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller }) => {
    const request = decodeOrderHistoryRQ(envelope);
    const { orderId, ownerCode } = request.order;
    // Another airline's order is not ours: answered like a missing one.
    if (ownerCode !== deps.config.airline.designator) throw new GatewayError("order_not_found");
    const { order, versions } = await deps.orders.historyVersions(orderId, { clientId: seller.clientId, agencyId: seller.agencyId });
    return { response: encodeOrderHistoryRS(orderHistoryViewOf(order, { carrier: deps.config.airline.designator, versions })) };
  };
}
