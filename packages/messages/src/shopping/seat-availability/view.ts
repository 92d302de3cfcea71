// Moved to @ndc/shopping (src/model/seat-availability-view.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { SeatAvailabilityView, SeatMapView, CabinView, CabinComponentView, SeatRowView, SeatView } from "@ndc/shopping";
