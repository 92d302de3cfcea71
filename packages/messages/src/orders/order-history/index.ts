export { decodeOrderHistoryRQ, type OrderHistoryRequest } from "./decode";
export { encodeOrderHistoryRS } from "./encode";
export type * from "./view";
export { orderHistoryViewOf } from "./view-of";
