export { OfferRepository, type StoredOffer, type OfferOwner, type OfferSource } from "./offers/repository";
export type { FlightOfferPayload, ALaCartePayload, OfferPayload, StoredPax, StoredJourney, StoredOfferItem } from "./offers/payload";
export { Localiser } from "./localisation";
