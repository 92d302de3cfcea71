import { GatewayError } from "@ndc/errors";
import type { OfferSelection, OrderCreateInput, OrderItemRef, PassengerInput } from "@ndc/orders";
import type { SellerContext } from "../../handler";
import type { OrderCreateRequest } from "./request";

const QUOTED = "Request/CreateOrder/AcceptSelectedQuotedOfferList";
const ITEM = "Request/CreateOrder/AcceptOrderItemList/CreateOrderItem";

/**
 * The decoded OrderCreateRQ as the domain takes it (a pure mapping: the seller's own terms,
 * settlement account and commission, are the domain's: OrdersService.withSellerTerms).
 * `ids` is the key the request is idempotent on with the seller (spec 4.4 rule 1): the seller's
 * CorrelationID and TrxID, or what the gateway takes in their place when PayloadAttributes is
 * left out (apps/gateway/src/handlers/request-key.ts).
 */
export function orderCreateInput(rq: OrderCreateRequest, seller: SellerContext, ids: { correlationId: string; trxId: string }): OrderCreateInput {
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
      ...(p.gender ? { gender: p.gender } : {}),
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
    correlationId: ids.correlationId,
    trxId: ids.trxId,
    selections: selections(rq),
    ...(rq.selection.form === "AcceptOrderItemList" ? { orderItems: orderItems(rq.selection.orderItems) } : {}),
    passengers,
    ...(email || phone ? { contact: { ...(email ? { email } : {}), ...(phone ? { phone } : {}) } } : {}),
    ...(rq.paymentLegs.length ? { payment: rq.paymentLegs } : {}),
    ...(rq.intendedPayment ? { intendedPayment: rq.intendedPayment } : {}),
  };
}

function selections(rq: OrderCreateRequest): OfferSelection[] {
  const s = rq.selection;
  if (s.form === "AcceptSelectedQuotedOfferList") {
    return s.quotedOffers.map((o, n) => {
      // SelectedBundleServices: the options chosen per bundle item; the domain checks them against the bundle.
      const bundleOptions = o.items.flatMap((i) => (i.bundle?.serviceDefinitionIds.length ? [{ offerItemId: i.offerItemId, serviceDefinitionIds: i.bundle.serviceDefinitionIds }] : []));
      // With their PaxRefIDs and where they are named: the domain refuses an item named twice or
      // for a passenger it does not cover, naming the element.
      // ... and the Qty asked for (SelectedALaCarteOfferItem): an a-la-carte item is charged per unit.
      const items = o.items.map((i, k) => ({ offerItemId: i.offerItemId, paxIds: i.paxIds, ...(i.service ? { qty: i.service.qty } : {}), at: `${QUOTED}/SelectedPricedOffer[${n + 1}]/SelectedOfferItem[${k + 1}]` }));
      return { offerId: o.offerId, ownerCode: o.ownerCode, items, ...(bundleOptions.length ? { bundleOptions } : {}) };
    });
  }
  // CreateOrderItem carries no OfferID in 24.4: its items (orderItems) are traced to their offers
  // by the domain, which reads the stored offers (@ndc/orders create/item-list.ts).
  return [];
}

/** Each CreateOrderItem with the element naming it, so a refusal of one points at it. */
function orderItems(items: readonly { offerItemId?: string; ownerCode: string }[]): OrderItemRef[] {
  return items.map((it, i) => ({ ...(it.offerItemId !== undefined ? { offerItemId: it.offerItemId } : {}), ownerCode: it.ownerCode, at: `${ITEM}[${i + 1}]` }));
}
