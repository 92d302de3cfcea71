import type { PaxTypeCode } from "./request-types";
import type { BaggageAllowanceView, MediaView, TaxonomyView } from "./common";

/**
 * DataLists of a shopping response. Everything offers refer to by id lives here once.
 * Carrier, operator and aircraft names pass through untouched (spec 4.8 rule 3).
 */
export interface DataListsView {
  passengers: PaxView[];
  segments: SegmentView[];
  journeys: JourneyView[];
  originDests: OriginDestView[];
  baggageAllowances: BaggageAllowanceView[];
  serviceDefinitions: ServiceDefinitionView[];
  seatProfiles: SeatProfileView[];
  priceClasses: PriceClassView[];
  /**
   * The media list. 24.4 has no MediaList in DataLists, so each media item is rendered where it
   * is referenced (RichMedia, or Desc/URL on a ServiceDefinition) with its caption.
   */
  media: MediaView[];
}

/** A passenger: id and type only. Identity documents never appear in shopping responses. */
export interface PaxView {
  paxId: string;
  ptc: PaxTypeCode;
}

export interface CarrierView {
  code: string;
  name?: string;
}

/** One flight of a journey: rendered as PaxSegment + DatedMarketingSegment + DatedOperatingSegment + DatedOperatingLeg. */
export interface SegmentView {
  paxSegmentId: string;
  origin: string;
  destination: string;
  /** Station names in the content language (airline content). */
  originName?: string;
  destinationName?: string;
  /** Local scheduled times, YYYY-MM-DDTHH:MM:SS. */
  departure: string;
  arrival: string;
  marketing: CarrierView & { flightNumber: string };
  /** Defaults to the marketing carrier and flight (an own-metal flight). */
  operating?: CarrierView & { flightNumber?: string };
  aircraft?: { iataCode?: string; name?: string };
  /** The cabin every offer of the answer sells on this flight (PaxSegment SegmentCabinType); absent when they differ. */
  cabin?: { code: string; name?: string };
  /** Booking class (MarketingCarrierRBD_Code). */
  rbd?: string;
  /** ISO 8601 duration, e.g. PT2H15M. */
  duration?: string;
  /** Id of the operating leg (seat maps refer to it); defaults to "<paxSegmentId>-LEG". */
  legId?: string;
  /** The flight falls under the US Secure Flight programme (DatedOperatingSegment/SecureFlightInd). */
  secureFlight?: boolean;
}

export interface JourneyView {
  paxJourneyId: string;
  paxSegmentIds: string[];
  duration?: string;
}

export interface OriginDestView {
  originDestId: string;
  origin: string;
  destination: string;
  paxJourneyIds: string[];
}

/** A service in the catalogue (ServiceDefinition). Name and descriptions in the content language. */
export interface ServiceDefinitionView {
  serviceDefinitionId: string;
  ownerCode: string;
  name: string;
  descriptions: string[];
  rfic?: string;
  rfisc?: string;
  serviceCode?: string;
  taxonomy: TaxonomyView[];
  mediaIds?: string[];
  /** What the definition stands for: a bundle of other definitions, a bag allowance or seat profiles. */
  association?:
    | { kind: "bundle"; serviceDefinitionIds: string[]; maxQty?: number }
    | { kind: "baggage"; baggageAllowanceIds: string[] }
    | { kind: "seatProfiles"; seatProfileIds: string[] };
}

export interface SeatProfileView {
  seatProfileId: string;
  characteristics: string[];
  /** Seat descriptions in the content language (MarketingInfo). */
  descriptions: string[];
  /** SeatKeywords (KeyText, ValueText): e.g. the OrderItemRefID and PaxRefID of a booked order's own seat. */
  keywords?: { key: string; value: string }[];
  pitchInches?: number;
  widthInches?: number;
  mediaIds?: string[];
}

/** A fare brand (PriceClass). Name and benefit texts in the content language. */
export interface PriceClassView {
  priceClassId: string;
  name: string;
  code?: string;
  descriptions: string[];
  cabin?: { code: string; name?: string };
  fareBasisCode?: string;
  displayOrder?: number;
  mediaIds?: string[];
}

export function emptyDataLists(): DataListsView {
  return {
    passengers: [],
    segments: [],
    journeys: [],
    originDests: [],
    baggageAllowances: [],
    serviceDefinitions: [],
    seatProfiles: [],
    priceClasses: [],
    media: [],
  };
}
