import { decodeFlightRequest } from "../../shopping/air-shopping/flight-request";
import { invalid, list, reqText, type Cursor } from "../../shopping/shared/cursor";
import { column, wholeNumber } from "../../shopping/shared/values";
import type { ReshopForm } from "./request";

const MAX_ROW = 999;

/**
 * The seat form of OrderReshopRQ (spec 4.7: one flight, one passenger, one seat per message):
 * AddOfferItems with FlightRequest/FlightRequestOriginDestinationsCriteria naming ONE flight
 * (OriginDestCriteria: origin, destination, date), PaxList with ONE Pax, OrderCriteria with ONE
 * SeatCriteria (RowNumber, ColumnID). Anything more is refused, naming the element.
 */
export function addSeat(add: Cursor, seats: Cursor[]): Extract<ReshopForm, { form: "addSeat" }> {
  const at = add.path;
  if (seats.length !== 1) throw invalid(`${at}/OrderCriteria/SeatCriteria`, "A seat is reshopped alone: one SeatCriteria per message.");
  const flights = decodeFlightRequest(add).originDestinations;
  if (flights.length !== 1) throw invalid(`${at}/FlightRequest`, "A seat is reshopped for one flight: one OriginDestCriteria per message.");
  const pax = list(list(add, "PaxList")[0], "Pax");
  if (pax.length !== 1) throw invalid(`${at}/PaxList/Pax`, "A seat is reshopped for one passenger: one Pax per message.");
  const s = seats[0]!;
  const row = reqText(s, "RowNumber");
  return {
    form: "addSeat",
    flight: flights[0]!,
    paxId: reqText(pax[0]!, "PaxID"),
    seat: { row: wholeNumber(row, `${s.path}/RowNumber`, 1, MAX_ROW), column: column(reqText(s, "ColumnID"), `${s.path}/ColumnID`) },
  };
}
