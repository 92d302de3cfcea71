import type { CabinPreference, RequestedFlight, ResponsePreferences, ServiceCriterion, ShoppingPax } from "./request-types";

export type { RequestedFlight };

/** The decoded IATA_AirShoppingRQ (spec 4.7). */
export interface AirShoppingRequest {
  /** The FlightRequest choice the seller used. */
  form: "OriginDestinations" | "SpecificOriginDestinations" | "Affinity";
  /** Read from the shape of the criteria: one leg, out and back, or anything else. */
  journeyType: "OneWay" | "Return" | "MultiCity";
  /** In travel order (by Ordinal when every criterion has one, else as sent). */
  originDestinations: OriginDestCriterion[];
  /** Request/PaxList/Pax; empty when the seller sent no PaxList (the schema allows it). */
  passengers: ShoppingPax[];
  /** Request/OfferCriteria/ServiceCriteria. */
  serviceCriteria: ServiceCriterion[];
  preferences: ResponsePreferences;
}

export interface OriginDestCriterion {
  /** OriginDestID as sent, so the response can echo the seller's reference. */
  originDestId?: string;
  origin: string;
  destination: string;
  departureDate: string;
  /** Preferred departure time, HH:MM. */
  departureTime?: string;
  arrivalDate?: string;
  cabins: CabinPreference[];
  /** CalendarDateCriteria: days around the date the seller would also accept. */
  calendar?: { daysBefore: number; daysAfter: number };
  /** The specific flights asked for (SpecificOriginDestinations form); empty otherwise. */
  flights: RequestedFlight[];
}
