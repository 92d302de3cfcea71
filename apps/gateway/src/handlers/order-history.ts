import { GatewayError } from "@ndc/errors";
import { decodeOrderHistoryRQ, encodeOrderHistoryRS, orderHistoryViewOf, type MessageHandler } from "@ndc/messages";
import { orderLegs } from "@ndc/payments";
import type { HandlerDeps } from "./deps";

/** OrderHistoryRQ (spec 4.7, 5.7): each version of the caller's own order, oldest first. */
export function orderHistoryHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller }) => {
    const request = decodeOrderHistoryRQ(envelope);
    const { orderId, ownerCode } = request.order;
    // Another airline's order is not ours: answered like a missing one.
    if (ownerCode !== deps.config.airline.designator) throw new GatewayError("order_not_found");
    const { order, versions } = await deps.orders.historyVersions(orderId, { clientId: seller.clientId, agencyId: seller.agencyId });
    // The versions carry no ledger: each change's payments are named with the legs' masked methods (PAYSUM's).
    const ledger = await orderLegs(deps.store.db, order.orderId);
    return { response: encodeOrderHistoryRS(orderHistoryViewOf(order, { carrier: deps.config.airline.designator, versions, ledger })) };
  };
}
