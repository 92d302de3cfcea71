export { OfferRepository, type StoredOffer, type OfferOwner, type OfferSource } from "./offers/repository";
