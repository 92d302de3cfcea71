import type { Envelope } from "@ndc/xml";
import { req } from "../../shopping/shared/cursor";
import { requestCursor } from "../../shopping/shared/request-common";
import { orderKey, type OrderKey } from "../shared/decode/order-key";

/**
 * The decoded IATA_ServiceDeliveryRQ (ServiceDeliveryRequestType): the order whose services'
 * delivery is asked, Request/Order (OrderID, OwnerCode). 24.4 makes Order optional, but the
 * gateway answers about one order of the caller's, so it is required here; the request's other
 * lists (Pax, PaxSegment, Service, ContactInfoList) are not read: every service of the order is
 * answered.
 */
export interface ServiceDeliveryRequest {
  order: OrderKey;
}

export function decodeServiceDeliveryRQ(envelope: Envelope): ServiceDeliveryRequest {
  return { order: orderKey(req(requestCursor(envelope), "Order")) };
}
