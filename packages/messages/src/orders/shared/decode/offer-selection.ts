import { invalid, list, opt, req, reqText, texts, type Cursor } from "../../../shopping/shared/cursor";
import { decodeCreateOrderItems } from "../../../shopping/shared/create-order-item";
import type { CreateOrderItemSelection } from "../../../shopping/offer-price/request";
import { flightAssociation, nonEmpty } from "../../../shopping/shared/request-common";
import type { FlightAssociation } from "../../../shopping/shared/request-types";
import { column, wholeNumber } from "../../../shopping/shared/values";

const MAX_ROW = 999;
const MAX_QTY = 99;

export interface OrderSeatChoice {
  row: number;
  column: string;
}

/** One CreateOrderItem of AcceptOrderItemList: decoded as OfferPriceRQ decodes it (one decoder for both). */
export type CreateOrderItemRef = CreateOrderItemSelection;

/** One SelectedOfferItem of a SelectedPricedOffer: the item, its passengers and the choices made. */
export interface QuotedOfferItemRef {
  offerItemId: string;
  paxIds: string[];
  seat?: OrderSeatChoice;
  /** An a-la-carte service (airline extra, ride, partner product) with its quantity. */
  service?: { qty: number; flights?: FlightAssociation };
  /** SelectedBundleServices: options chosen from a bundle (partner products). */
  bundle?: { serviceId: string; serviceDefinitionIds: string[] };
}

/** AcceptSelectedQuotedOfferList/SelectedPricedOffer: an offer priced earlier, by OfferID. */
export interface QuotedOfferRef {
  offerId: string;
  ownerCode: string;
  items: QuotedOfferItemRef[];
}

/** CreateOrder (and OrderChange's ChangeOrderChoice) allow either list; exactly one is filled. */
export type OfferSelection =
  | { form: "AcceptOrderItemList"; orderItems: CreateOrderItemRef[] }
  | { form: "AcceptSelectedQuotedOfferList"; quotedOffers: QuotedOfferRef[] };

function seatOf(row: Cursor, col: Cursor): OrderSeatChoice {
  return {
    row: wholeNumber(row.el.text.trim(), row.path, 1, MAX_ROW),
    column: column(col.el.text.trim(), col.path),
  };
}

function quotedItem(i: Cursor): QuotedOfferItemRef {
  const item: QuotedOfferItemRef = { offerItemId: reqText(i, "OfferItemRefID"), paxIds: nonEmpty(i, "PaxRefID") };
  const seat = opt(i, "SelectedSeat");
  if (seat) item.seat = seatOf(req(seat, "SeatRowNumber"), req(seat, "ColumnID"));
  const alc = opt(i, "SelectedALaCarteOfferItem");
  if (alc) {
    const flights = flightAssociation(alc);
    const qty = req(alc, "Qty");
    item.service = { qty: wholeNumber(qty.el.text.trim(), qty.path, 1, MAX_QTY), ...(flights ? { flights } : {}) };
  }
  const bundle = opt(i, "SelectedBundleServices");
  if (bundle) {
    item.bundle = { serviceId: reqText(bundle, "SelectedServiceRefID"), serviceDefinitionIds: texts(bundle, "SelectedServiceDefinitionRefID") };
  }
  return item;
}

function quotedOffers(accept: Cursor): QuotedOfferRef[] {
  const offers = list(accept, "SelectedPricedOffer");
  if (offers.length === 0) throw invalid(`${accept.path}/SelectedPricedOffer`, "SelectedPricedOffer is required.");
  return offers.map(selectedOffer);
}

/** One selected offer (SelectedPricedOffer, or OrderQuoteRQ's SelectedOffers): OfferRefID, OwnerCode, its items. */
export function selectedOffer(o: Cursor): QuotedOfferRef {
  const items = list(o, "SelectedOfferItem");
  if (items.length === 0) throw invalid(`${o.path}/SelectedOfferItem`, "SelectedOfferItem is required.");
  return { offerId: reqText(o, "OfferRefID"), ownerCode: reqText(o, "OwnerCode"), items: items.map(quotedItem) };
}

/** The AcceptOrderItemList | AcceptSelectedQuotedOfferList choice under `parent`, if present. */
export function offerSelection(parent: Cursor): OfferSelection | undefined {
  const accept = opt(parent, "AcceptOrderItemList");
  if (accept) return { form: "AcceptOrderItemList", orderItems: decodeCreateOrderItems(accept) };
  const quoted = opt(parent, "AcceptSelectedQuotedOfferList");
  if (quoted) return { form: "AcceptSelectedQuotedOfferList", quotedOffers: quotedOffers(quoted) };
  return undefined;
}
