export { OfferRepository, type StoredOffer, type OfferOwner, type OfferSource } from "./offers/repository";
export type { FlightOfferPayload, ALaCartePayload, OfferPayload, StoredPax, StoredJourney, StoredOfferItem } from "./offers/payload";
export { Localiser } from "./localisation";
export { ServiceList, type StoredServiceItem } from "./services/service-list";
export { serviceItemId, servicesOfferId, aLaCarteOfferId } from "./services/ids";
export { SeatAvailability } from "./seats/seat-availability";
