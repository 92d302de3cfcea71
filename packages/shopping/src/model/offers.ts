import type { FlightAssociation } from "./request-types";
import type { FareConditionsView, PriceView, TaxonomyView } from "./common";

/**
 * An offer (NewOfferType): a flight offer with its items, as AirShoppingRS and OfferPriceRS
 * carry it. Offer-level discounts and surcharges live in `totalPrice`.
 */
export interface OfferView {
  offerId: string;
  ownerCode: string;
  /** OfferExpirationTimeLimitDateTime, ISO 8601 with zone (offers are cached within it, spec 8). */
  expiresAt?: string;
  /** The fare brand of each journey (JourneyOverview). */
  journeys: { paxJourneyId: string; priceClassId?: string }[];
  /** Baggage per passenger and journey; empty for a brand with no allowance (the offer states nothing). */
  baggage: { baggageAllowanceIds: string[]; paxIds: string[]; paxJourneyIds?: string[] }[];
  items: OfferItemView[];
  totalPrice?: PriceView;
  mediaIds?: string[];
}

/** An offer item (NewOfferItemType): priced for the passengers in paxIds together. */
export interface OfferItemView {
  offerItemId: string;
  ownerCode?: string;
  /** Price of the item for all its passengers, with per-item discounts and surcharges. */
  price: PriceView;
  /** Flight items: the fare per segment with its brand. */
  fare?: { components: FareComponentView[]; paxIds: string[] };
  /** Fare conditions of the brand (flight items, spec 4.5 rule 2). */
  conditions?: FareConditionsView;
  services: OfferServiceView[];
  taxonomy?: TaxonomyView[];
  mandatory?: boolean;
  priceGuaranteeUntil?: string;
  mediaIds?: string[];
}

export interface FareComponentView {
  paxSegmentIds: string[];
  priceClassId: string;
  fareBasisCode?: string;
  cabin?: { code: string; name?: string };
}

/** A service of an offer item (OfferedServiceType) and what it is for. */
export interface OfferServiceView {
  serviceId: string;
  paxIds: string[];
  association:
    | { kind: "journeys"; paxJourneyIds: string[] }
    | { kind: "serviceDefinition"; serviceDefinitionId: string; flights?: FlightAssociation }
    | { kind: "seat"; row: number; column: string; paxSegmentId: string; characteristics?: string[]; seatProfileId?: string; serviceDefinitionId?: string };
  /** ServiceRefID: the catalogue service this one was made from, when it differs. */
  serviceRefId?: string;
  taxonomy?: TaxonomyView[];
  /** Text, e.g. a bundle option's name (airline content). */
  description?: string;
}

/** An a-la-carte offer (ALaCarteOfferType): services priced per unit, bought with a flight or order. */
export interface ALaCarteOfferView {
  offerId: string;
  ownerCode: string;
  expiresAt?: string;
  /** Composed by the gateway, so English: e.g. which flight offer these services go with. */
  description?: string;
  items: ALaCarteItemView[];
}

export interface ALaCarteItemView {
  offerItemId: string;
  ownerCode?: string;
  serviceId: string;
  serviceDefinitionId: string;
  /** Who and which flights may buy it (Eligibility). */
  paxIds: string[];
  flights?: FlightAssociation;
  priceClassIds?: string[];
  unitPrice: PriceView;
  taxonomy?: TaxonomyView[];
  mediaIds?: string[];
  /** What may be done with it once bought (CancelRestrictions, ChangeRestrictions). */
  terms?: ExtraTermsView;
}

/**
 * An extra's terms, composed English. A cancellation refunds it in full (Refund Full); whether it
 * may be cancelled at all follows the fare it is bought with, so it is said in the text only.
 */
export interface ExtraTermsView {
  cancel: { text: string };
  change: { allowed: boolean; text: string };
}
