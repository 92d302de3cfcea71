import { decodeServiceListRQ, encodeServiceListRS, type MessageHandler } from "@ndc/messages";
import { ServiceList } from "@ndc/shopping";
import type { HandlerDeps } from "./deps";

/** ServiceListRQ (spec 4.7): decode, list from the domain, encode. */
export function serviceListHandler(deps: HandlerDeps): MessageHandler {
  const services = serviceListOf(deps);
  return async ({ envelope, seller }) => {
    const request = decodeServiceListRQ(envelope);
    const view = await services.list(request, { clientId: seller.clientId, agencyId: seller.agencyId });
    return { response: encodeServiceListRS(view) };
  };
}

/** The listing domain with the gateway's booked orders (also OrderReshopRQ's extras form). */
export function serviceListOf(deps: HandlerDeps): ServiceList {
  return new ServiceList({
    ...deps,
    offerTtlMinutes: deps.config.shopping.offerTtlMinutes,
    orders: (orderId, owner) => deps.orders.bookedOrder(orderId, owner),
  });
}
