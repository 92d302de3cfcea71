// Moved to @ndc/shopping (src/model/service-list-view.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { ServiceListView } from "@ndc/shopping";
