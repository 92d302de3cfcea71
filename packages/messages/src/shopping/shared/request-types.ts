// Moved to @ndc/shopping (src/model/request-types.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { PaxTypeCode, ShoppingPax, ResponsePreferences, ServiceCriterion, FlightAssociation, CabinPreference, RequestedFlight } from "@ndc/shopping";
