import { GatewayError } from "@ndc/errors";
import { cancelQuoteViewOf, decodeOrderReshopRQ, encodeCancelQuoteRS, type MessageHandler } from "@ndc/messages";
import type { HandlerDeps } from "./deps";

/**
 * OrderReshopRQ (spec 4.7). Served form: UpdateOrder/CancelOrderRef, a firm quote to cancel the
 * whole order (OrderReshopRS with the refund and a signed OfferID, docs/servicing.md). ReshopOrder
 * deleting items is refused with cancel_items_not_supported (24.4 cancels whole orders);
 * other ReshopOrder forms with change_not_supported, after the ownership check.
 */
export function orderReshopHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller }) => {
    const rq = decodeOrderReshopRQ(envelope);
    const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
    if (rq.form === "cancelOrder") {
      const { order, quote } = await deps.orders.quoteCancel(rq.orderId, owner);
      return { response: encodeCancelQuoteRS(cancelQuoteViewOf(order, quote, deps.config.airline.designator)) };
    }
    // Ownership first: another seller's order must not learn which changes exist for it.
    await deps.orders.retrieve(rq.orderId, owner);
    if (rq.deletesItems) throw new GatewayError("cancel_items_not_supported", { element: "Request/UpdateOrder/ReshopOrder" });
    throw new GatewayError("change_not_supported", { detail: "Reshopping items of a booked order is not offered yet.", element: "Request/UpdateOrder/ReshopOrder" });
  };
}
