import { GatewayError } from "@ndc/errors";
import type { OrdersContext } from "../../context";
import type { Order } from "../../state";
import { verifyFlightsChange, type SignedFlightsChange } from "./quote";

/** Where OrderChangeRQ names the quote accepted (refusals point at it). */
export const ACCEPT_AT = "Request/ChangeOrderChoice/AcceptSelectedQuotedOfferList/SelectedPricedOffer/OfferRefID";

/**
 * The acceptance's first gate (decision 0016, "the acceptance"): the `FCQ.` id must be one this
 * gateway signed for this order (offer_not_found), not past its expiry (offer_expired), and given
 * for the order as it is now: any change since (its version moved) makes the quote stale, refused
 * as offer_expired with a detail saying so (nothing is taken either way). A quote already spent
 * by another request is quote_already_used (saga.ts, keyed by the quote). Either form of id is
 * read: one direction, or several replaced together.
 */
export function checkFlightChangeQuote(ctx: Pick<OrdersContext, "fieldKey">, order: Order, quoteId: string, now: number): SignedFlightsChange {
  const s = verifyFlightsChange(ctx.fieldKey, quoteId, order.orderId, ACCEPT_AT);
  if (now >= s.expiresAt) throw new GatewayError("offer_expired", { detail: "The flight-change quote has expired; ask OrderReshopRQ for a new one.", element: ACCEPT_AT });
  if (s.version !== order.version || s.directions.some((d) => !order.journeys[d.direction])) {
    throw new GatewayError("offer_expired", { detail: "The order changed after the flight-change quote was given; ask OrderReshopRQ for a new one.", element: ACCEPT_AT });
  }
  return s;
}
