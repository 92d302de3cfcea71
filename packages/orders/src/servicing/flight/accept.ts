import { GatewayError } from "@ndc/errors";
import type { OrdersContext } from "../../context";
import { assertOwner, type Order, type Seller } from "../../state";
import { verifyFlightChange, type SignedFlightChange } from "./quote";

/** Where OrderChangeRQ names the quote accepted (refusals point at it). */
export const ACCEPT_AT = "Request/ChangeOrderChoice/AcceptSelectedQuotedOfferList/SelectedPricedOffer/OfferRefID";

/**
 * The acceptance's first gate (decision 0016, "the acceptance"): the `FCQ.` id must be one this
 * gateway signed for this order (offer_not_found), not past its expiry (offer_expired), and given
 * for the order as it is now: any change since (its version moved) makes the quote stale, refused
 * as offer_expired with a detail saying so (nothing is taken either way). A quote already spent
 * also fails here, since the change it made moved the order's version.
 */
export function checkFlightChangeQuote(ctx: Pick<OrdersContext, "fieldKey">, order: Order, quoteId: string, now: number): SignedFlightChange {
  const s = verifyFlightChange(ctx.fieldKey, quoteId, order.orderId, ACCEPT_AT);
  if (now >= s.expiresAt) throw new GatewayError("offer_expired", { detail: "The flight-change quote has expired; ask OrderReshopRQ for a new one.", element: ACCEPT_AT });
  if (s.version !== order.version || !order.journeys[s.direction]) {
    throw new GatewayError("offer_expired", { detail: "The order changed after the flight-change quote was given; ask OrderReshopRQ for a new one.", element: ACCEPT_AT });
  }
  return s;
}

/**
 * OrderChangeRQ accepting a flight-change quote. The quote is checked (above) so a seller learns
 * at once that an id is forged, expired or stale; the change itself (the `order_change_flight`
 * saga of decision 0016) is not built yet, so a valid quote is refused with change_not_supported
 * and nothing is taken or changed.
 */
export async function acceptFlightChange(ctx: OrdersContext, orderId: string, seller: Seller, quoteId: string): Promise<never> {
  const order = assertOwner(await ctx.orders.ask(orderId, { op: "get" }), seller);
  if (order.state !== "booked") throw new GatewayError("order_state_invalid", { detail: `The order is ${order.state}; only a booked order's flights are changed.` });
  checkFlightChangeQuote(ctx, order, quoteId, ctx.clock.now());
  throw new GatewayError("change_not_supported", { detail: "Accepting a flight-change quote is not offered yet; the quote is valid and nothing was changed.", element: ACCEPT_AT });
}
