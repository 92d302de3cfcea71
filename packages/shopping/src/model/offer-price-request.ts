import type { FlightAssociation, ResponsePreferences, ShoppingPax } from "./request-types";

/**
 * The decoded IATA_OfferPriceRQ (spec 4.5). Request/PricedOffer is a choice: SelectedOfferList
 * (offers and the items chosen from them) or AcceptOrderItemList (CreateOrderItem per item).
 * Exactly one of `selectedOffers` and `orderItems` is non-empty, matching `form`.
 * Prices a seller puts in the request are never read: the airline prices.
 */
export interface OfferPriceRequest {
  form: "SelectedOfferList" | "AcceptOrderItemList";
  selectedOffers: SelectedOffer[];
  orderItems: CreateOrderItemSelection[];
  /** Request/DataLists/PaxList/Pax. */
  passengers: ShoppingPax[];
  preferences: ResponsePreferences;
}

export interface SelectedOffer {
  offerId: string;
  ownerCode: string;
  items: SelectedOfferItem[];
}

export interface SelectedOfferItem {
  offerItemId: string;
  paxIds: string[];
  /** SelectedSeat: the seat chosen for a seat item. */
  seat?: SeatChoice;
  /** SelectedALaCarteOfferItem: quantity and the flights an a-la-carte service is for. */
  aLaCarte?: { qty: number; flights?: FlightAssociation };
  /** SelectedBundleServices: the options chosen from a service bundle (partner products, SHPBND). */
  bundle?: { serviceId: string; serviceDefinitionIds: string[] };
}

export interface SeatChoice {
  row: number;
  column: string;
}

/** One CreateOrderItem, with what its OfferItemType choice says (prices ignored). */
export interface CreateOrderItemSelection {
  offerItemId?: string;
  ownerCode: string;
  item?:
    | { kind: "flight"; originDestIds: string[] }
    | { kind: "seat"; paxId: string; paxSegmentId: string; datedOperatingLegIds: string[]; seat?: SeatChoice; seatProfileIds: string[] }
    | { kind: "baggage"; paxId: string; paxSegmentId: string; baggageAllowanceIds: string[] }
    | { kind: "other"; description?: string };
}
