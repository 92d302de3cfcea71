// Moved to @ndc/shopping (src/model/seat-availability-request.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { SeatAvailabilityRequest } from "@ndc/shopping";
