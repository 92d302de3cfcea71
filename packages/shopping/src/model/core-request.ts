import type { RequestedFlight } from "./request-types";

/**
 * SeatAvailCoreRequest and ServiceListCoreRequest share one choice in 24.4: an offer
 * (OfferRequest/Offer), a booked order (OrderRequest/Order) or flights (PaxSegmentRequest).
 */
export type CoreRequest =
  | { form: "offer"; offers: OfferRef[] }
  | { form: "order"; order: OrderRef }
  | { form: "paxSegment"; segments: RequestedFlight[] };

export interface OfferRef {
  offerId: string;
  ownerCode: string;
  /** OfferItem narrows the request to some items; empty means the whole offer. */
  items: ItemRef[];
}

export interface OrderRef {
  orderId: string;
  ownerCode: string;
  orderVersion?: number;
  items: ItemRef[];
}

/** An OfferItem or OrderItem reference with the flights and passengers it is narrowed to. */
export interface ItemRef {
  id: string;
  ownerCode?: string;
  paxIds: string[];
  paxSegmentIds: string[];
  datedOperatingLegIds: string[];
  serviceIds: string[];
}
