import { GatewayError } from "@ndc/errors";
import type { OfferRef } from "../model";
import type { Flight, Supply } from "@ndc/supply";
import type { OfferOwner, OfferRepository, StoredOffer } from "../offers/repository";
import type { FlightOfferPayload, StoredJourney } from "../offers/payload";

/** A stored flight offer with its flights looked up in the supply, segment by segment. */
export interface FlightOfferContext {
  offer: StoredOffer<FlightOfferPayload>;
  /** Every segment of every journey, in journey order. */
  segments: { journey: StoredJourney; paxSegmentId: string; flight: Flight }[];
}

/**
 * Resolves the single offer a SeatAvailability or ServiceList request names. The owner check,
 * expiry and "another seller's offer looks missing" live in OfferRepository; here: the offer
 * must be ours (OwnerCode) and a flight offer (an a-la-carte offer has no flights to list for).
 */
export async function loadFlightOffer(
  offers: OfferRepository,
  supply: Supply,
  refs: readonly OfferRef[],
  owner: OfferOwner,
  element: string,
): Promise<{ context: FlightOfferContext; ref: OfferRef }> {
  if (refs.length !== 1) {
    throw new GatewayError("request_invalid", { detail: "Name exactly one Offer.", element: `${element}/Offer` });
  }
  const ref = refs[0]!;
  if (ref.ownerCode !== supply.carrier.code) {
    throw new GatewayError("offer_not_found", { detail: `OfferID ${ref.offerId.slice(0, 64)}.`, element: `${element}/Offer/OfferID` });
  }
  const offer = await offers.resolve<FlightOfferPayload>(ref.offerId, owner, `${element}/Offer/OfferID`);
  if (offer.payload.kind !== "flight") {
    throw new GatewayError("offer_not_found", {
      detail: `OfferID ${ref.offerId.slice(0, 64)} is an a-la-carte offer; name the flight offer it goes with.`,
      element: `${element}/Offer/OfferID`,
    });
  }
  const segments = offer.payload.journeys.flatMap((journey) =>
    journey.flightKeys.map((key, i) => {
      const flight = supply.flight(key);
      // The offer was issued from this supply; a flight gone from it means the horizon moved on.
      if (!flight) throw new GatewayError("flight_not_found", { detail: `A flight of offer ${ref.offerId.slice(0, 64)} is no longer sold.` });
      return { journey, paxSegmentId: journey.paxSegmentIds[i]!, flight };
    }),
  );
  return { context: { offer, segments }, ref };
}
