export { decodeOrderHistoryRQ, type OrderHistoryRequest } from "./decode";
export { encodeOrderHistoryRS } from "./encode";
export type * from "./view";
