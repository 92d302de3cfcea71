// Moved to @ndc/shopping (src/model/offers.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { OfferView, OfferItemView, FareComponentView, OfferServiceView, ALaCarteOfferView, ALaCarteItemView, ExtraTermsView } from "@ndc/shopping";
