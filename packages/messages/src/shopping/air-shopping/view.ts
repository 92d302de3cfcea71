// Moved to @ndc/shopping (src/model/air-shopping-view.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { AirShoppingView } from "@ndc/shopping";
