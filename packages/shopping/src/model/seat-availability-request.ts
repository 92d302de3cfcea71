import type { CoreRequest } from "./core-request";
import type { ResponsePreferences, ShoppingPax } from "./request-types";

/**
 * The decoded IATA_SeatAvailabilityRQ (spec 4.6): the seat map of an offer (the form the
 * spec requires), of a booked order, or of named flights. Request/Pax is read for PaxID and
 * PTC only; an IdentityDoc on it is never read (spec 4.6 rule 2).
 */
export interface SeatAvailabilityRequest {
  target: CoreRequest;
  passengers: ShoppingPax[];
  preferences: ResponsePreferences;
}
