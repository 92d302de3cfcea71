import type { Money } from "../../shopping/shared/view/money";
import type { OrderView } from "../shared/view/order";
import type { PaymentEntryView } from "../shared/view/payment";

/**
 * What an order looked like before or after one change: the whole order as OrderViewRS gives it
 * (`order`: its DataLists and Order, identity documents omitted), or, without the order's
 * versions, only the parts that changed.
 */
export interface ChangeDetailsView {
  /** The whole order at that version (its `payments` and `warnings` are not written: PAYSUM is the present ledger's, OrderViewRS shows it). */
  order?: OrderView;
  statusCode?: string;
  totalPrice?: Money;
  /** Items added, removed or whose state moved; `description` is English text the domain composed. */
  items?: { orderItemId: string; statusCode?: string; description?: string }[];
  /** New only: the payments and refunds the change made (PaymentFunctions/PaymentProcessingSummary), masked as PAYSUM. */
  payments?: PaymentEntryView[];
  /** Passengers whose details the change touched, as they were (Old) and became (New); never an identity document. */
  passengers?: { paxId: string; ptc: string; gender?: string; givenNames: string[]; surname: string; title?: string }[];
}

/** Who made a change (DistributionChain): the seller's agency, or the airline (its own steps, or its staff by id). */
export interface ChangeActorView {
  role: "Seller" | "Carrier";
  orgId: string;
  salesAgentId?: string;
}

/** One change (ChangeOperation): when, what kind, why, and the before/after. */
export interface OrderChangeOperationView {
  at: string;
  /** e.g. ORDER_CREATED, ITEM_ADDED, PAYMENT_CAPTURED, STATUS_CHANGED. */
  typeCode: string;
  /** e.g. SELLER_REQUEST, PAYMENT_DECLINED, TIME_LIMIT_EXPIRED. */
  reasonCode: string;
  old?: ChangeDetailsView;
  new?: ChangeDetailsView;
}

/** One order version with the changes that made it. */
export interface OrderVersionView {
  versionNumber: number;
  changes: OrderChangeOperationView[];
  actor?: ChangeActorView;
}

/** The view model of IATA_OrderHistoryRS. */
export interface OrderHistoryView {
  orderId: string;
  versions: OrderVersionView[];
}
