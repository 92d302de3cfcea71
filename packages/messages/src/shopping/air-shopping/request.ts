// Moved to @ndc/shopping (src/model/air-shopping-request.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { AirShoppingRequest, OriginDestCriterion } from "@ndc/shopping";
