import { GatewayError } from "@ndc/errors";
import type { OrderCreateRequest, SellerContext } from "@ndc/messages";
import type { OrderCreateInput, OfferSelection, PassengerInput } from "@ndc/orders";
import type { CommissionAgreement } from "@ndc/payments";
import { shoppingIds } from "@ndc/shopping";

const PA = "PayloadAttributes";

/**
 * The decoded OrderCreateRQ as the domain takes it. CorrelationID and TrxID are required here
 * although the schema makes them optional: with the seller they are the idempotency key, and
 * without a key a retry could book twice (spec 4.4 rule 1).
 */
export function orderCreateInput(
  rq: OrderCreateRequest,
  seller: SellerContext,
  /** The seller agency's agreement (PAYCOM), looked up by the handler; none: no commission. */
  commissionAgreement?: CommissionAgreement,
): OrderCreateInput & { correlationId: string; trxId: string } {
  if (!rq.correlationId) throw new GatewayError("request_invalid", { detail: "PayloadAttributes/CorrelationID is required: OrderCreateRQ is idempotent on CorrelationID and TrxID.", element: `${PA}/CorrelationID` });
  if (!rq.trxId) throw new GatewayError("request_invalid", { detail: "PayloadAttributes/TrxID is required: OrderCreateRQ is idempotent on CorrelationID and TrxID.", element: `${PA}/TrxID` });
  const contactOf = new Map(rq.contacts.map((c) => [c.contactInfoId, c]));
  const passengers = rq.passengers.map((p, i): PassengerInput => {
    if (!p.surname) throw new GatewayError("request_invalid", { detail: `Passenger ${p.paxId.slice(0, 32)} needs a surname.`, element: `Request/DataLists/PaxList/Pax[${i + 1}]/Individual/Surname` });
    const contact = p.contactInfoId ? contactOf.get(p.contactInfoId) : undefined;
    const loyalty = p.loyalty.find((l) => l.programme && l.accountNumber);
    return {
      paxId: p.paxId,
      surname: p.surname,
      ...(p.title ? { title: p.title } : {}),
      ...(p.givenNames.length ? { givenNames: p.givenNames } : {}),
      ...(p.birthDate ? { birthdate: p.birthDate } : {}),
      ...(contact?.emails[0] ? { email: contact.emails[0] } : {}),
      ...(contact?.phones[0] ? { phone: contact.phones[0] } : {}),
      ...(loyalty ? { loyalty: { programme: loyalty.programme!, account: loyalty.accountNumber! } } : {}),
      ...(p.identityDocs.length ? { identityDocs: p.identityDocs } : {}),
    };
  });
  // The order's contact: the first address given, so a partner product has somewhere to go.
  const email = rq.contacts.flatMap((c) => c.emails)[0];
  const phone = rq.contacts.flatMap((c) => c.phones)[0];
  return {
    seller: { clientId: seller.clientId, agencyId: seller.agencyId },
    correlationId: rq.correlationId,
    trxId: rq.trxId,
    selections: selections(rq),
    passengers,
    ...(email || phone ? { contact: { ...(email ? { email } : {}), ...(phone ? { phone } : {}) } } : {}),
    ...(rq.paymentLegs.length ? { payment: rq.paymentLegs } : {}),
    ...(commissionAgreement ? { commissionAgreement } : {}),
  };
}

function selections(rq: OrderCreateRequest): OfferSelection[] {
  const s = rq.selection;
  if (s.form === "AcceptSelectedQuotedOfferList") {
    return s.quotedOffers.map((o) => ({ offerId: o.offerId, ownerCode: o.ownerCode, offerItemIds: o.items.map((i) => i.offerItemId) }));
  }
  // CreateOrderItem carries no OfferID in 24.4: a flight offer item's id names its offer
  // (shopping ids), so items are grouped by the offer their id names.
  const byOffer = new Map<string, OfferSelection>();
  s.orderItems.forEach((item, i) => {
    const offerId = item.offerItemId ? shoppingIds.offerOfItem(item.offerItemId) : undefined;
    if (!offerId) {
      throw new GatewayError("request_invalid", {
        detail: "A CreateOrderItem names a flight offer item by OfferItemRefID; book seats and extras with AcceptSelectedQuotedOfferList.",
        element: `Request/CreateOrder/AcceptOrderItemList/CreateOrderItem[${i + 1}]/OfferItemRefID`,
      });
    }
    const sel = byOffer.get(offerId) ?? { offerId, ownerCode: item.ownerCode, offerItemIds: [] };
    sel.offerItemIds!.push(item.offerItemId!);
    byOffer.set(offerId, sel);
  });
  return [...byOffer.values()];
}
