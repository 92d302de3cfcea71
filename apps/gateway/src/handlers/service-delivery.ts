import { GatewayError } from "@ndc/errors";
import { decodeServiceDeliveryRQ, encodeServiceDeliveryRS, serviceDeliveryViewOf, type MessageHandler } from "@ndc/messages";
import type { HandlerDeps } from "./deps";

/**
 * ServiceDeliveryRQ (spec 3, 4.7): the delivery state of each service of the seller's own order.
 * Another seller's order, or another airline's, is answered exactly like a missing one, thrown
 * before anything about the order is read. The answer never carries an identity document.
 */
export function serviceDeliveryHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller }) => {
    const { order: key } = decodeServiceDeliveryRQ(envelope);
    if (key.ownerCode !== deps.config.airline.designator) throw new GatewayError("order_not_found");
    const details = await deps.orders.retrieveDetails(key.orderId, { clientId: seller.clientId, agencyId: seller.agencyId });
    const airline = { code: deps.config.airline.designator, name: deps.config.airline.name };
    return { response: encodeServiceDeliveryRS(serviceDeliveryViewOf(details, airline)) };
  };
}
