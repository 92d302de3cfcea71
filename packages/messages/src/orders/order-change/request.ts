import type { LegRequest } from "@ndc/payments";
import type { OrderKey } from "../shared/decode/order-key";
import type { CreateOrderItemRef, OfferSelection, QuotedOfferItemRef } from "../shared/decode/offer-selection";
import type { OrderContact, OrderPax } from "../shared/decode/passengers";

/**
 * What an OrderChangeRQ asks for (spec 4.7). A seat and extras go in separate messages, so a
 * seat change holds exactly one seat for one passenger and a services change holds no seat.
 */
export type OrderChange =
  /** PaymentFunctions alone: the seller retries a declined payment. */
  | { form: "paymentRetry" }
  /** One seat from the order's seat map for one passenger (SelectedSeat or a SeatItem). */
  | { form: "seat"; offerId?: string; ownerCode: string; paxId: string; item: QuotedOfferItemRef | CreateOrderItemRef }
  /** Airline extras added to the booked order (ORDRE2). */
  | { form: "services"; selection: OfferSelection }
  /** UpdatePax: a passenger's name corrected (Current = the order's PaxID, New = a DataLists Pax); documents are never taken here. */
  | { form: "updatePax"; currentPaxId: string; newPaxId: string; name: { title?: string; givenNames: string[]; surname: string } }
  | { form: "cancelUnpaid"; orderItemIds: string[] }
  /** AcceptCancelledOffer: the cancel quote of an OrderReshopRS accepted (OfferID = quote id). */
  | { form: "acceptCancel"; offerId: string; ownerCode: string }
  /** AcceptChange, AcceptRepricedOrder: recognised, not served yet. */
  | { form: "other"; choice: "AcceptChange" | "AcceptRepricedOrder" };

export interface OrderChangeRequest {
  order: OrderKey;
  change: OrderChange;
  /** Legs paying for this change or retrying the order's payment; at most four. */
  paymentLegs: LegRequest[];
  /** DataLists passengers (no identity documents: those are refused on this message). */
  passengers: OrderPax[];
  contacts: OrderContact[];
  /**
   * OrderChangeParameters/ReasonCode `FLEXIBILITY`: the seller asks to use the order's
   * Flexibility service for this change where the fare does not allow it (docs/servicing.md
   * "Flexibility"). Without it a Flexibility is never spent.
   */
  useFlexibility: boolean;
  /** Content languages asked for (spec 4.8 rule 1): PayloadAttributes/PrimaryLangID; empty: the default. */
  languages: string[];
}
