// Moved to @ndc/shopping (src/model/offer-price-view.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { PaymentMethodView, OfferPriceView } from "@ndc/shopping";
