import { isGatewayError } from "@ndc/errors";
import { aLaCarteOfferId, servicesOfferId, type FlightOfferPayload, type OfferOwner, type OfferPayload, type OfferRepository, type StoredOffer } from "@ndc/shopping";

/**
 * Where the non-flight items sold with a flight offer live, so a CreateOrderItem that names
 * one by OfferItemRefID alone (24.4 carries no OfferID there) can be traced to its offer.
 * Every a-la-carte offer id is derived from the flight offer's id (services/ids.ts), so they
 * are computed here, not searched for: the shared services offer (AirShopping ServiceCriteria,
 * ServiceListRQ), services priced in the offer's currency under their own id, the seats of
 * SeatAvailabilityRQ; and for a priced offer (OfferPriceRQ) the priced offer itself, which
 * carries the extras priced with it, and the offers it was priced from.
 */
export function candidateOfferIds(seed: string | number, flight: StoredOffer<FlightOfferPayload>): string[] {
  const { currency, pricedFrom = [] } = flight.payload;
  const bases = [flight.offerId, ...pricedFrom];
  const derived = bases.flatMap((id) => [servicesOfferId(seed, id), aLaCarteOfferId(seed, id, "seats", currency), aLaCarteOfferId(seed, id, "services", currency)]);
  return [...new Set([flight.offerId, ...pricedFrom, ...derived])];
}

/**
 * The item id -> offer id index of the candidate offers this seller holds. A candidate never
 * issued (the seller skipped ServiceListRQ or SeatAvailabilityRQ) is simply absent; an expired
 * one still refuses, as any expired offer does. Flight items are left out: they name their offer.
 */
export async function itemIndex(offers: OfferRepository, owner: OfferOwner, offerIds: readonly string[]): Promise<Map<string, string>> {
  const index = new Map<string, string>();
  const found = await Promise.all(offerIds.map((id) => offers.resolve<OfferPayload>(id, owner).catch((e: unknown) => (isGatewayError(e) && e.code === "offer_not_found" ? undefined : Promise.reject(e)))));
  for (const offer of found) {
    for (const it of offer?.payload.items ?? []) if (it.kind !== "flight" && !index.has(it.offerItemId)) index.set(it.offerItemId, offer!.offerId);
  }
  return index;
}
