/**
 * The order messages (OrderCreate, OrderChange, OrderReshop, OrderQuote, OrderRetrieve, OrderList,
 * OrderHistory, OrderRules, ServiceDelivery):
 * decoders (request XML -> typed request), pure mappings (typed request -> the domain's input,
 * the domain's results -> view model: orderCreateInput, orderListFilters, orderViewOf,
 * orderListViewOf, orderHistoryViewOf) and encoders (view model -> 24.4 Response element).
 * No business logic and no reads: the domain (@ndc/orders OrdersService) reads everything an
 * answer shows. See docs/messages/order-xml-shapes.md for what is read and written.
 */
export * from "./order-create";
export * from "./order-change";
export * from "./order-reshop";
export * from "./order-quote";
export * from "./order-retrieve";
export * from "./order-list";
export * from "./order-history";
export * from "./order-view";
export * from "./order-rules";
export * from "./service-delivery";
export * from "./order-sales-information";
export type { OrderKey } from "./shared/decode/order-key";
export type { CreateOrderItemRef, OfferSelection, OrderSeatChoice, QuotedOfferItemRef, QuotedOfferRef } from "./shared/decode/offer-selection";
export type { OrderContact, OrderPax, OrderPaxLoyalty } from "./shared/decode/passengers";
export type { PointOfSale } from "./shared/decode/pos";
export type * from "./shared/view/order";
export type * from "./shared/view/pax";
export type * from "./shared/view/payment";
export { ORDER_STATUS_CODES } from "./shared/view/status-codes";
export { MASKED_DOCUMENT_ID } from "./shared/encode/pax";
