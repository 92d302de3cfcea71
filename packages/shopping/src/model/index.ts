// What shopping is asked and what it answers (the requests the messages decode, the results they
// encode): shopping's own shapes, so the domain depends on no message code (issue 21, section 5).
export type * from "./request-types";
export type * from "./core-request";
export type * from "./common";
export type * from "./data-lists";
export type * from "./offers";
export type * from "./air-shopping-request";
export type * from "./air-shopping-view";
export type * from "./offer-price-request";
export type * from "./offer-price-view";
export type * from "./seat-availability-request";
export type * from "./seat-availability-view";
export type * from "./service-list-request";
export type * from "./service-list-view";
export { emptyDataLists } from "./data-lists";
export { money, formatMoney, type Money } from "./money";
