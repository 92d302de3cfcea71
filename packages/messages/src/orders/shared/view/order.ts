import type { DataListsView } from "../../../shopping/shared/view/data-lists";
import type { PriceView, ProcessingView, TaxonomyView, WarningView } from "../../../shopping/shared/view/common";
import type { Money } from "../../../shopping/shared/view/money";
import type { PaymentEntryView } from "./payment";
import type { OrderPaxView, OrderContactView } from "./pax";

/**
 * The view model of IATA_OrderViewRS, handed over by the orders domain: already decided,
 * summed and masked. Money is in integer minor units (shopping's Money); the encoder only
 * places it in the 24.4 structure.
 */
export interface OrderView {
  orderId: string;
  ownerCode: string;
  /** The order's state code (OrderStatusCode), e.g. ORDWPM for held unpaid. */
  statusCode: string;
  versionNumber: number;
  /** ISO 8601 instants. */
  createdAt?: string;
  lastModifiedAt?: string;
  /**
   * When an unpaid order is cancelled. 24.4 has no order-level slot, so it is rendered as
   * PaymentTimeLimitDateTime on every order item.
   */
  paymentTimeLimit?: string;
  totalPrice?: PriceView;
  /** PAYCOM: the seller's commission on the order total (surcharges included). */
  commissions: CommissionView[];
  items: OrderItemView[];
  dataLists: OrderDataListsView;
  /** PAYSUM: every payment and refund, one root PaymentFunctions each. */
  payments: PaymentEntryView[];
  processing?: ProcessingView;
  warnings: WarningView[];
}

/** The order's data lists: shopping's lists (flights, services, seat profiles) with full passengers. */
export type OrderDataListsView = Omit<DataListsView, "passengers"> & {
  passengers: OrderPaxView[];
  contacts: OrderContactView[];
};

export interface CommissionView {
  /** The commission amount. */
  amount: Money;
  /** Commission code, e.g. the agreement's id (1 to 35 characters). */
  code?: string;
  /** Percentage agreements: the rate (9.5 = 9.5%) and the base it was applied to. */
  percent?: number;
  base?: Money;
}

/** What an order item sells, for readers of the view; the XML shows it through its services. */
export type OrderItemKind = "flight" | "seat" | "service" | "ride" | "partner_product";

export interface OrderItemView {
  orderItemId: string;
  ownerCode: string;
  kind: OrderItemKind;
  statusCode?: string;
  /** When the item was ordered (ISO 8601). */
  createdAt?: string;
  /** Flight items: the order's frozen conditions, per passenger (CancelRestrictions, ChangeRestrictions). */
  restrictions?: RestrictionsView;
  price?: PriceView;
  /** Rides, partner products and airline services carry their taxonomy node (spec 2.7). */
  taxonomy?: TaxonomyView[];
  services: OrderServiceView[];
}

/** One OrderedService: a passenger's share of the item on a flight, a seat or a service definition. */
export interface OrderServiceView {
  serviceId: string;
  paxId: string;
  statusCode?: string;
  deliveryStatusCode?: string;
  /** Why the service is or is not delivered (ServiceDeliveryRS DeliveryStatusDescText); composed English. */
  deliveryText?: string;
  /** English or content-language text the domain composed. */
  description?: string;
  taxonomy?: TaxonomyView[];
  /** Included in the fare (a flight's baggage allowance): no value of its own, not accounted. */
  included?: boolean;
  association:
    /** A flight: its segment, named directly (issue 20 item 8). */
    | { kind: "segment"; paxSegmentId: string }
    | { kind: "seat"; row: number; column: string; characteristics?: string[]; seatProfileId?: string; legIds?: string[]; paxSegmentId?: string; serviceDefinitionId?: string }
    | { kind: "serviceDefinition"; serviceDefinitionId: string; paxSegmentIds?: string[] };
}

/**
 * A flight item's conditions as frozen onto the order (the outbound direction's, SHPOR1 rule 2),
 * stated for each passenger of the item. Texts are composed English.
 */
export interface RestrictionsView {
  paxIds: string[];
  /** The fee is the one a cancellation made now keeps of a refundable fare (its band by time to departure), per passenger. */
  cancel: { allowed: boolean; refundable: boolean; fee?: Money; text: string };
  /** The fee is the one a change made now costs (its band by time to departure), per passenger. */
  change: { allowed: boolean; fee?: Money; text: string };
  name: { allowed: boolean; text: string };
}
