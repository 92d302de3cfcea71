/**
 * Request-side model pieces shared by the four shopping messages. Every field is what the
 * seller sent, checked for shape only: no defaults taken from the airline, no lookups.
 */

/** Passenger type code. ADT, CHD and INF are the ones the airline prices; others pass through. */
export type PaxTypeCode = "ADT" | "CHD" | "INF" | (string & {});

/**
 * A passenger of a shopping request (PaxList/Pax or Request/Pax). Only PaxID, PTC and age are
 * read: IdentityDoc, names, contacts and loyalty are not looked at (spec 4.6 rule 2, 7.3).
 */
export interface ShoppingPax {
  paxId: string;
  /** PTC as sent; when absent, derived from AgeMeasure (under 2 INF, under 12 CHD), else ADT. */
  ptc: PaxTypeCode;
  /** Where the PTC came from, so a handler can tell a stated type from a derived one. */
  ptcSource: "PTC" | "AgeMeasure" | "default";
  age?: number;
}

/** What the seller asked the response to be in (ResponseParameters and PayloadAttributes). */
export interface ResponsePreferences {
  /** ResponseParameters/CurParameter/CurCode: the one with AppCode Requested, else the first. */
  currency?: string;
  /**
   * The language to answer in (spec 4.8 rule 1): the first ResponseParameters/LangUsage/LangCode,
   * otherwise PayloadAttributes/PrimaryLangID. As sent: primary-subtag matching is the supply's job.
   */
  language?: string;
  languageSource?: "LangUsage" | "PrimaryLangID";
  /** Every LangUsage/LangCode in the order sent (a preference list). */
  langUsage: string[];
}

/** OfferCriteria/ServiceCriteria: which services to list, or (IncludeInd false) to exclude. */
export interface ServiceCriterion {
  /** IncludeInd; absent means true (the element asks for the services it names). */
  include: boolean;
  rfic?: string;
  rfisc: string[];
  taxonomyCodes: string[];
  /** PrefLevel/PrefLevelCode: Preferred, Required or Exclude. */
  preference?: "Preferred" | "Required" | "Exclude";
  /** ServicePricingOnlyInd. */
  pricingOnly?: boolean;
}

/** OfferFlightAssociations: which flights an item or selection applies to. */
export type FlightAssociation =
  | { kind: "paxSegments"; ids: string[] }
  | { kind: "paxJourneys"; ids: string[] }
  | { kind: "datedOperatingLegs"; ids: string[] };

/** A cabin preference (CabinType): CabinTypeCode as sent with its PrefLevel. */
export interface CabinPreference {
  code: string;
  preference: "Preferred" | "Required" | "Exclude";
}

/** One dated marketing flight named by a request (PaxSegment -> Request/DatedMarketingSegmentList). */
export interface RequestedFlight {
  paxSegmentId: string;
  marketingCarrier: string;
  flightNumber: string;
  origin: string;
  destination: string;
  departureDate: string;
  departureTime?: string;
  cabinCode?: string;
}
