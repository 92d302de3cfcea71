import { invalid, list, opt, optText, reqText, texts, type Cursor } from "./cursor";
import { nonEmpty } from "./request-common";
import { column, wholeNumber } from "./values";
import type { CreateOrderItemSelection } from "../offer-price/request";

const MAX_ROW = 999;

function itemType(t: Cursor): CreateOrderItemSelection["item"] {
  const flight = opt(t, "FlightItem");
  if (flight) return { kind: "flight", originDestIds: nonEmpty(flight, "OriginDestRefID") };
  const seat = opt(t, "SeatItem");
  if (seat) {
    const rowText = optText(seat, "RowNumber");
    const colText = optText(seat, "ColumnID");
    if ((rowText === undefined) !== (colText === undefined)) {
      throw invalid(`${seat.path}/${rowText === undefined ? "RowNumber" : "ColumnID"}`, "A seat needs both RowNumber and ColumnID.");
    }
    return {
      kind: "seat",
      paxId: reqText(seat, "PaxRefID"),
      paxSegmentId: reqText(seat, "PaxSegmentRefID"),
      datedOperatingLegIds: nonEmpty(seat, "DatedOperatingLegRefID"),
      seatProfileIds: texts(seat, "SeatProfileRefID"),
      ...(rowText && colText
        ? { seat: { row: wholeNumber(rowText, `${seat.path}/RowNumber`, 1, MAX_ROW), column: column(colText, `${seat.path}/ColumnID`) } }
        : {}),
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

/**
 * AcceptOrderItemList/CreateOrderItem, as OfferPriceRQ and OrderCreateRQ (and OrderChangeRQ) carry
 * it: the item id and what its OfferItemType says it is. Prices a seller puts there are never read.
 */
export function decodeCreateOrderItems(listCursor: Cursor): CreateOrderItemSelection[] {
  const items = list(listCursor, "CreateOrderItem");
  if (items.length === 0) throw invalid(`${listCursor.path}/CreateOrderItem`, "CreateOrderItem is required.");
  return items.map((i) => {
    const sel: CreateOrderItemSelection = { ownerCode: reqText(i, "OwnerCode") };
    const ref = optText(i, "OfferItemRefID");
    if (ref) sel.offerItemId = ref;
    const t = opt(i, "OfferItemType");
    if (t) sel.item = itemType(t);
    if (!sel.offerItemId && !sel.item) throw invalid(`${i.path}/OfferItemRefID`, "A CreateOrderItem needs OfferItemRefID or OfferItemType.");
    return sel;
  });
}

