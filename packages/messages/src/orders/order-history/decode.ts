import type { Envelope } from "@ndc/xml";
import { requestCursor } from "../../shopping/shared/request-common";
import { requiredOrderKey, type OrderKey } from "../shared/decode/order-key";

/** The decoded IATA_OrderHistoryRQ: the order whose versions are listed. */
export interface OrderHistoryRequest {
  order: OrderKey;
}

/** IATA_OrderHistoryRQ -> OrderHistoryRequest (Request/Order: OrderID, OwnerCode). */
export function decodeOrderHistoryRQ(envelope: Envelope): OrderHistoryRequest {
  return { order: requiredOrderKey(requestCursor(envelope), "Order") };
}
