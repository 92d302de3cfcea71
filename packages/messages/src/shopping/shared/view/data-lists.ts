// Moved to @ndc/shopping (src/model/data-lists.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { DataListsView, PaxView, CarrierView, SegmentView, JourneyView, OriginDestView, ServiceDefinitionView, SeatProfileView, PriceClassView } from "@ndc/shopping";
export { emptyDataLists } from "@ndc/shopping";
