import { decodeServiceListRQ, encodeServiceListRS, type MessageHandler } from "@ndc/messages";
import { ServiceList } from "@ndc/shopping";
import type { HandlerDeps } from "./deps";

/** ServiceListRQ (spec 4.7): decode, list from the domain, encode. */
export function serviceListHandler(deps: HandlerDeps): MessageHandler {
  const services = new ServiceList({
    ...deps,
    offerTtlMinutes: deps.config.shopping.offerTtlMinutes,
    // The booked-order form: OrdersService.retrieve checks ownership (another seller's order is
    // order_not_found, like a missing one); shopping only needs the flights and passengers.
    orders: async (orderId, owner) => {
      const o = await deps.orders.retrieve(orderId, owner);
      return { orderId: o.orderId, state: o.state, currency: o.currency, passengers: o.passengers.map((p) => ({ paxId: p.paxId, ptc: p.ptc })), journeys: o.journeys };
    },
  });
  return async ({ envelope, seller }) => {
    const request = decodeServiceListRQ(envelope);
    const view = await services.list(request, { clientId: seller.clientId, agencyId: seller.agencyId });
    return { response: encodeServiceListRS(view) };
  };
}
