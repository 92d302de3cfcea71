import { invalid, list, opt, optText, req, reqText, texts, type Cursor } from "../../../shopping/shared/cursor";
import { flightAssociation, nonEmpty } from "../../../shopping/shared/request-common";
import type { FlightAssociation } from "../../../shopping/shared/request-types";
import { column, wholeNumber } from "../../../shopping/shared/values";

const MAX_ROW = 999;
const MAX_QTY = 99;

export interface OrderSeatChoice {
  row: number;
  column: string;
}

/**
 * One CreateOrderItem of AcceptOrderItemList (CreateOrderItemType). OfferItemType says what the
 * item is; prices a seller puts there are never read, the airline prices.
 */
export interface CreateOrderItemRef {
  offerItemId?: string;
  ownerCode: string;
  item?:
    | { kind: "flight"; originDestIds: string[] }
    | { kind: "seat"; paxId: string; paxSegmentId: string; datedOperatingLegIds: string[]; seatProfileIds: string[]; seat?: OrderSeatChoice }
    | { kind: "baggage"; paxId: string; paxSegmentId: string; baggageAllowanceIds: string[] }
    | { kind: "other"; description?: string };
}

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

function itemType(t: Cursor): NonNullable<CreateOrderItemRef["item"]> {
  const flight = opt(t, "FlightItem");
  if (flight) return { kind: "flight", originDestIds: nonEmpty(flight, "OriginDestRefID") };
  const seat = opt(t, "SeatItem");
  if (seat) {
    const row = opt(seat, "RowNumber");
    const col = opt(seat, "ColumnID");
    if ((row === undefined) !== (col === undefined)) {
      throw invalid(`${seat.path}/${row === undefined ? "RowNumber" : "ColumnID"}`, "A seat needs both RowNumber and ColumnID.");
    }
    return {
      kind: "seat",
      paxId: reqText(seat, "PaxRefID"),
      paxSegmentId: reqText(seat, "PaxSegmentRefID"),
      datedOperatingLegIds: nonEmpty(seat, "DatedOperatingLegRefID"),
      seatProfileIds: texts(seat, "SeatProfileRefID"),
      ...(row && col ? { seat: seatOf(row, col) } : {}),
    };
  }
  const bag = opt(t, "BaggageItem");
  if (bag) {
    return {
      kind: "baggage",
      paxId: reqText(bag, "PaxRefID"),
      paxSegmentId: reqText(bag, "PaxSegmentRefID"),
      baggageAllowanceIds: list(bag, "BagItemDetails").map((d) => reqText(d, "BaggageAllowanceRefID")),
    };
  }
  const other = opt(t, "OtherItem");
  if (other) {
    const description = optText(other, "DescText");
    return { kind: "other", ...(description ? { description } : {}) };
  }
  throw invalid(t.path, "OfferItemType needs BaggageItem, FlightItem, OtherItem or SeatItem.");
}

function createOrderItems(accept: Cursor): CreateOrderItemRef[] {
  const items = list(accept, "CreateOrderItem");
  if (items.length === 0) throw invalid(`${accept.path}/CreateOrderItem`, "CreateOrderItem is required.");
  return items.map((i) => {
    const ref: CreateOrderItemRef = { ownerCode: reqText(i, "OwnerCode") };
    const id = optText(i, "OfferItemRefID");
    if (id) ref.offerItemId = id;
    const t = opt(i, "OfferItemType");
    if (t) ref.item = itemType(t);
    if (!ref.offerItemId && !ref.item) throw invalid(`${i.path}/OfferItemRefID`, "A CreateOrderItem needs OfferItemRefID or OfferItemType.");
    return ref;
  });
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
  return offers.map((o) => {
    const items = list(o, "SelectedOfferItem");
    if (items.length === 0) throw invalid(`${o.path}/SelectedOfferItem`, "SelectedOfferItem is required.");
    return { offerId: reqText(o, "OfferRefID"), ownerCode: reqText(o, "OwnerCode"), items: items.map(quotedItem) };
  });
}

/** The AcceptOrderItemList | AcceptSelectedQuotedOfferList choice under `parent`, if present. */
export function offerSelection(parent: Cursor): OfferSelection | undefined {
  const accept = opt(parent, "AcceptOrderItemList");
  if (accept) return { form: "AcceptOrderItemList", orderItems: createOrderItems(accept) };
  const quoted = opt(parent, "AcceptSelectedQuotedOfferList");
  if (quoted) return { form: "AcceptSelectedQuotedOfferList", quotedOffers: quotedOffers(quoted) };
  return undefined;
}
