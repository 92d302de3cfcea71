import { GatewayError } from "@ndc/errors";
import type { AddInput, OfferSelection } from "@ndc/orders";
import type { SellerContext } from "../../handler";
import type { QuotedOfferRef } from "../shared/decode/offer-selection";
import type { OrderChange, OrderChangeRequest } from "./request";

const CHOICE = "Request/ChangeOrderChoice";
const QUOTED = `${CHOICE}/AcceptSelectedQuotedOfferList`;

/**
 * The seat and services forms of a decoded OrderChangeRQ as the domain's post-sale change
 * (ORDRE2, @ndc/orders servicing/add). A pure mapping. `ids` (the seller's CorrelationID and
 * TrxID, or the request itself without them: apps/gateway/src/handlers/request-key.ts) with the
 * seller and the order identify the change, so a retry never charges twice. Only the
 * quoted-offer form is read (SelectedPricedOffer naming the offer ServiceListRQ or
 * SeatAvailabilityRQ issued for the order); CreateOrderItem carries no OfferID in 24.4.
 */
export function addInput(rq: OrderChangeRequest, change: Extract<OrderChange, { form: "seat" | "services" }>, ids: { correlationId: string; trxId: string }, seller: SellerContext): AddInput {
  const quoted = quotedOffers(change);
  const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
  return {
    by: { channel: "seller", seller: owner },
    offerOwner: owner,
    orderId: rq.order.orderId,
    correlationId: ids.correlationId,
    trxId: ids.trxId,
    form: change.form,
    selections: quoted.map(selection),
    payment: rq.paymentLegs,
    ...(change.form === "seat" && "seat" in change.item && change.item.seat ? { seatId: `${change.item.seat.row}${change.item.seat.column}` } : {}),
  };
}

function quotedOffers(change: Extract<OrderChange, { form: "seat" | "services" }>): QuotedOfferRef[] {
  if (change.form === "seat") {
    if (!change.offerId || !("paxIds" in change.item)) throw notQuoted();
    return [{ offerId: change.offerId, ownerCode: change.ownerCode, items: [change.item] }];
  }
  if (change.selection.form !== "AcceptSelectedQuotedOfferList") throw notQuoted();
  return change.selection.quotedOffers;
}

function selection(o: QuotedOfferRef, n: number): OfferSelection {
  return {
    offerId: o.offerId,
    ownerCode: o.ownerCode,
    items: o.items.map((i, k) => ({ offerItemId: i.offerItemId, paxIds: i.paxIds, ...(i.service ? { qty: i.service.qty } : {}), at: `${QUOTED}/SelectedPricedOffer[${n + 1}]/SelectedOfferItem[${k + 1}]` })),
  };
}

function notQuoted(): GatewayError {
  return new GatewayError("change_not_supported", {
    detail: "A booked order takes extras and seats by AcceptSelectedQuotedOfferList (SelectedPricedOffer naming the offer listed for the order); AcceptOrderItemList is not read here.",
    element: CHOICE,
  });
}
