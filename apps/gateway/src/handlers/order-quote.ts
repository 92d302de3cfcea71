import { GatewayError } from "@ndc/errors";
import { decodeOrderQuoteRQ, encodeOrderReshopRS, quoteViewOf, type MessageHandler } from "@ndc/messages";
import type { PaxTypeCode } from "@ndc/messages";
import type { HandlerDeps } from "./deps";

/**
 * OrderQuoteRQ (issue 9 item 9): a post-sale change of a booked order (extras, or one seat)
 * priced into a firm quote with an expiry (OrdersService.quoteAdd), answered as OrderReshopRS
 * carrying the quote as a re-quoted a-la-carte offer (decision 0013). OrderChangeRQ accepts it by
 * its OfferID; an expired quote is offer_expired, a spent one quote_already_used.
 */
export function orderQuoteHandler(deps: HandlerDeps): MessageHandler {
  const ownerCode = deps.config.airline.designator;
  return async ({ envelope, seller }) => {
    const rq = decodeOrderQuoteRQ(envelope);
    // Another airline's order is never ours: answered like a missing order.
    if (rq.ownerCode !== ownerCode) throw new GatewayError("order_not_found");
    const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
    const seat = rq.offers.flatMap((o) => o.items).find((i) => i.seat);
    const quote = await deps.orders.quoteAdd({
      by: { channel: "seller", seller: owner },
      offerOwner: owner,
      orderId: rq.orderId,
      correlationId: envelope.payload.correlationId ?? "",
      trxId: envelope.payload.trxId ?? "",
      form: seat ? "seat" : "services",
      selections: rq.offers.map((o, n) => ({
        offerId: o.offerId,
        ownerCode: o.ownerCode,
        items: o.items.map((i, k) => ({ offerItemId: i.offerItemId, paxIds: i.paxIds, ...(i.service ? { qty: i.service.qty } : {}), at: `Payload/SelectedOffers[${n + 1}]/SelectedOfferItem[${k + 1}]` })),
      })),
      ...(seat?.seat ? { seatId: `${seat.seat.row}${seat.seat.column}` } : {}),
    });
    const booked = await deps.orders.bookedOrder(rq.orderId, owner);
    return { response: encodeOrderReshopRS(quoteViewOf(quote, ownerCode, booked.passengers.map((p) => ({ paxId: p.paxId, ptc: p.ptc as PaxTypeCode })))) };
  };
}
