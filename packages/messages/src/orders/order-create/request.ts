import type { IntendedPayment, LegRequest } from "@ndc/payments";
import type { ResponsePreferences } from "../../shopping/shared/request-types";
import type { OfferSelection } from "../shared/decode/offer-selection";
import type { OrderContact, OrderPax } from "../shared/decode/passengers";
import type { PointOfSale } from "../shared/decode/pos";

/**
 * The decoded IATA_OrderCreateRQ (spec 2.3, 4.4). `selection` is CreateOrder's choice of
 * AcceptOrderItemList or AcceptSelectedQuotedOfferList. `paymentLegs` is empty when the request
 * carries no PaymentFunctions: the order is then held unpaid (ORDWPM). `intendedPayment` is set
 * instead of legs when PaymentFunctions names only the method it will be paid by later.
 */
export interface OrderCreateRequest {
  selection: OfferSelection;
  passengers: OrderPax[];
  contacts: OrderContact[];
  paymentLegs: LegRequest[];
  /** PaymentMethodCriteria without PaymentProcessingDetails: held for payment by this method. */
  intendedPayment?: IntendedPayment;
  /** PayloadAttributes: the idempotency key's two message parts (with the seller). */
  correlationId?: string;
  trxId?: string;
  pos?: PointOfSale;
  /** A Signature was sent; it is verified in a later issue, accepted here. */
  signed: boolean;
  preferences: ResponsePreferences;
}
