// Moved to @ndc/shopping (src/model/service-list-request.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { ServiceListRequest } from "@ndc/shopping";
