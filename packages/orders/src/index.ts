// @ndc/orders: the order domain (spec 2.3-2.5, 3, 4.4, 4.7). No HTTP, no XML.
export { OrdersService, type OrdersServiceOptions } from "./service";
export * from "./state";
export type { OrderCreateInput, OfferSelection, PassengerInput } from "./create/input";
export type { OrderCommand, OrderReply, NewOrder } from "./actor/commands";
export type { OrderEvent } from "./actor/events";
export { orderKind, ORDER_KIND } from "./actor/kind";
export type { OrdersContext } from "./context";
export { RequestIdempotency, type IdempotencyKey, type BeginResult, type StoredResponse } from "./idempotency/idempotency";
export { fingerprintOf, canonicalJson } from "./fingerprint";
export type { OrderListFilters, OrderListPage, OrderListResult, OrderSummary } from "./read/list";
export { MAX_PAGE } from "./read/list";
export { CURSOR_ELEMENT } from "./read/list-cursor";
export type { ReconcileReport } from "./reconcile/reconcile";
export { surnameDigest } from "./read/surname-digest";
export { ids as orderIds } from "./ids";
export type { CrashPoint } from "./saga/crash-point";
export type { SagaRow, SagaKind, SagaStatus } from "./saga/store";
export type { OrderDetails } from "./view/details";
