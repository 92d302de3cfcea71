// Moved to @ndc/shopping (src/model/offer-price-request.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { OfferPriceRequest, SelectedOffer, SelectedOfferItem, SeatChoice, CreateOrderItemSelection } from "@ndc/shopping";
