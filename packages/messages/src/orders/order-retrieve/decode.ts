import type { Envelope } from "@ndc/xml";
import { invalid, opt, req } from "../../shopping/shared/cursor";
import { contentLanguages, requestCursor } from "../../shopping/shared/request-common";
import { orderKey, type OrderKey } from "../shared/decode/order-key";

/** The decoded IATA_OrderRetrieveRQ: the order, by OrderID and OwnerCode. */
export interface OrderRetrieveRequest {
  order: OrderKey;
  /** Content languages asked for (spec 4.8 rule 1): every ResponseParameters/LangUsage, else PrimaryLangID; empty: English. */
  languages: string[];
}

// Criteria that find an order by a person, a document or a payment: not offered, because an
// order is answered only to the seller that owns it and only by its id (spec 4.7, DESIGN 5).
const UNSUPPORTED = ["BookingRefFilterCriteria", "DocFilterCriteria", "PaxFilterCriteria", "PaymentFilterCriteria"] as const;

/** IATA_OrderRetrieveRQ -> OrderRetrieveRequest (OrderValidationFilterCriteria/OrderFilterCriteria). */
export function decodeOrderRetrieveRQ(envelope: Envelope): OrderRetrieveRequest {
  const request = requestCursor(envelope);
  const criteria = req(request, "OrderValidationFilterCriteria");
  const filter = opt(criteria, "OrderFilterCriteria");
  if (!filter) {
    const other = UNSUPPORTED.map((n) => opt(criteria, n)).find((c) => c !== undefined);
    throw invalid(other?.path ?? `${criteria.path}/OrderFilterCriteria`, "An order is retrieved by OrderFilterCriteria (OrderID and OwnerCode).");
  }
  return { order: orderKey(filter), languages: contentLanguages(envelope, opt(request, "ResponseParameters")) };
}
