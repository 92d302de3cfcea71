import { stableId, type PricedItem } from "@ndc/supply";

/**
 * The a-la-carte id scheme shared by AirShopping (OfferCriteria/ServiceCriteria), ServiceList
 * and SeatAvailability, so the same service for the same offer has the same opaque id whichever
 * message issued it (spec 4.7), and OfferPrice/OrderCreate resolve it from the stored offer.
 * It matches the scheme AirShopping documents in common/ids.ts; import from here to keep one.
 *
 * - Item id: the supply's priced item id (`PricedItem.itemId`): a hash of the seed, the product
 *   (catalogue service, bundle, ride or partner product code), the flights it is for (one
 *   segment's key, or a journey's keys), the passenger type (ADT/CHD/INF; "vehicle" for a car,
 *   none for a partner product) and the currency. One item covers every passenger of that type
 *   (its Eligibility PaxRefIDs). Derived, never counted: asking again gives the same id.
 * - Seat item id: the supply's seat id (`PricedSeatMap.seatItemIds`): seed, flight, seat, currency.
 * - A-la-carte offer of services: `ALC-<hash(seed, flight offer id)>`, the one AirShopping issues;
 *   ServiceList adds to it (in the offer's currency) rather than replacing it.
 * - Any other a-la-carte offer (seats; services in another currency) adds what it is for, so it
 *   never overwrites the shared one.
 */
export function serviceItemId(priced: PricedItem): string {
  return priced.itemId;
}

export function servicesOfferId(seed: string | number, flightOfferId: string): string {
  return stableId("ALC", seed, flightOfferId);
}

/** An a-la-carte offer other than the shared services one: seats, or services priced in another currency. */
export function aLaCarteOfferId(seed: string | number, flightOfferId: string, purpose: "seats" | "services", currency: string): string {
  return stableId("ALC", seed, flightOfferId, purpose, currency);
}
