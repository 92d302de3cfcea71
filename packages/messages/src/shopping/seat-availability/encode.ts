import { c, cOpt, el, type XNode } from "@ndc/xml";
import { aLaCarteOffer } from "../shared/encode/a-la-carte";
import { processing, warning } from "../shared/encode/common";
import { dataLists, mediaIndex } from "../shared/encode/data-lists";
import type { CabinComponentView, CabinView, SeatAvailabilityView, SeatMapView, SeatRowView, SeatView } from "./view";

const STATUS: Record<SeatView["availability"], string> = { Available: "F", Occupied: "O", Blocked: "Z" };

function seat(s: SeatView, row: number): XNode {
  return c(
    "Seat",
    c("ColumnID", s.column),
    c("OccupationStatusCode", STATUS[s.availability]),
    s.offerItemIds.map((id) => c("OfferItemRefID", id)),
    c("RowNumber", row),
    s.characteristics.map((ch) => c("SeatCharacteristicCode", ch)),
    cOpt("SeatProfileRefID", s.seatProfileId),
  );
}

function seatRow(r: SeatRowView): XNode | null {
  // A SeatRow needs at least one Seat; a row with none (a galley row, say) is not listed.
  if (r.seats.length === 0) return null;
  return c(
    "SeatRow",
    r.characteristics.map((ch) => c("RowCharacteristicCode", ch)),
    c("RowNumber", r.number),
    r.seats.map((s) => seat(s, r.number)),
  );
}

/** CabinComponentType in schema order: the code, the columns beside it, its row (first = last), Before/After. */
function component(k: CabinComponentView): XNode {
  return c(
    "CabinComponent",
    c("CabinComponentTypeCode", k.code),
    k.columns.map((col) => c("ColumnID", col)),
    c("FirstRowNumber", k.row),
    c("LastRowNumber", k.row),
    cOpt("PositionCode", k.position),
  );
}

function cabin(k: CabinView): XNode {
  return c(
    "CabinCompartment",
    (k.components ?? []).map(component),
    c("CabinType", c("CabinTypeCode", k.cabinTypeCode), cOpt("CabinTypeName", k.cabinName)),
    cOpt("DeckCode", k.deck),
    c("FirstRowNumber", k.firstRow),
    c("LastRowNumber", k.lastRow),
    k.columns.map((col) => c("SeatColumn", c("ColumnID", col.id), col.characteristics.map((ch) => c("SeatCharacteristicCode", ch)))),
    k.rows.map(seatRow),
  );
}

function seatMap(m: SeatMapView): XNode {
  if (m.cabins.length === 0) throw new Error(`Seat map of ${m.paxSegmentId} has no cabin; 24.4 requires at least one.`);
  return c(
    "SeatMap",
    m.cabins.map(cabin),
    (m.datedOperatingLegIds ?? []).map((id) => c("DatedOperatingLegRefID", id)),
    c("PaxSegmentRefID", m.paxSegmentId),
  );
}

/** The Response element of IATA_SeatAvailabilityRS (SeatAvailResponseType), children in schema order. */
export function encodeSeatAvailabilityRS(v: SeatAvailabilityView): XNode {
  if (v.seatMaps.length === 0) throw new Error("SeatAvailabilityRS needs at least one seat map; answer an Error instead.");
  const media = mediaIndex(v.dataLists);
  return el(
    "Response",
    null,
    v.aLaCarteOffer ? aLaCarteOffer(v.aLaCarteOffer, media) : null,
    dataLists(v.dataLists),
    processing(v.processing),
    v.seatMaps.map(seatMap),
    v.warnings.map(warning),
  );
}
