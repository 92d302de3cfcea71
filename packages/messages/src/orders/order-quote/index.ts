export { decodeOrderQuoteRQ, type OrderQuoteRequest } from "./decode";
export { quoteViewOf } from "./view-of";
