import { decodeOrderListRQ, encodeOrderListRS, orderListAugmentation, orderListFilters, orderListViewOf, type MessageHandler } from "@ndc/messages";
import type { OrderListDetails } from "@ndc/orders";
import type { HandlerDeps } from "./deps";

/** OrderListRQ (spec 4.7, 5.7): the caller's own orders only, newest first, filtered and paged by cursor. */
export function orderListHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller }) => {
    const request = decodeOrderListRQ(envelope);
    const { size, after } = request.page;
    const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
    // Every order here is this airline's: a filter naming another carrier matches none.
    const page: OrderListDetails =
      request.carrier !== undefined && request.carrier !== deps.config.airline.designator
        ? { orders: [] }
        : await deps.orders.listDetails(owner, orderListFilters(request), { limit: size, ...(after !== undefined ? { after } : {}) });
    const view = orderListViewOf(page, size);
    return { response: encodeOrderListRS(view), augmentation: orderListAugmentation(view) };
  };
}
