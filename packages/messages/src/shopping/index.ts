/**
 * The four shopping messages (AirShopping, OfferPrice, SeatAvailability, ServiceList):
 * decoders (request XML -> typed request) and encoders (view model -> 24.4 Response element).
 * No business logic lives here: see docs/messages/xml-shapes.md for what is read and written.
 */
export * from "./air-shopping";
export * from "./offer-price";
export * from "./seat-availability";
export * from "./service-list";
export type * from "./shared/request-types";
export type { CoreRequest, OfferRef, OrderRef, ItemRef } from "./shared/core-request";
export type * from "./shared/view/common";
export type * from "./shared/view/data-lists";
export type * from "./shared/view/offers";
export { emptyDataLists } from "./shared/view/data-lists";
export { money, formatMoney, type Money } from "./shared/view/money";
