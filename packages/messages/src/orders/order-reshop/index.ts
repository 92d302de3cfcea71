export { decodeOrderReshopRQ } from "./decode";
export { encodeOrderReshopRS, type OrderReshopView } from "./encode";
export { encodeCancelQuoteRS } from "./encode-cancel-quote";
export type { OrderReshopRequest, ReshopForm } from "./request";
export { cancelItemsQuoteViewOf, cancelQuoteViewOf, type CancelQuoteView } from "./cancel-quote-view";
export { encodeFlightChangeRS } from "./encode-flight-change";
export { flightChangeQuoteViewOf, type FlightChangeQuoteView } from "./flight-change-view";
export { flightsChangeQuoteViewOf } from "./flights-change-view";
export { FLIGHT_CHANGE_ITEM_ID } from "./flight-change-offer";
