export { decodeOrderReshopRQ } from "./decode";
export type { OrderReshopRequest } from "./request";
export { cancelQuoteViewOf, type CancelQuoteView } from "./cancel-quote-view";
export { encodeCancelQuoteRS } from "./encode";
