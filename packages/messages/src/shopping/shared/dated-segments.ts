import { invalid, list, opt, optText, req, reqText, type Cursor } from "./cursor";
import type { RequestedFlight } from "./request-types";
import { dateTime, location } from "./values";

/** Request/DatedMarketingSegmentList indexed by DatedMarketingSegmentId. */
export function marketingSegments(request: Cursor): Map<string, Cursor> {
  const map = new Map<string, Cursor>();
  for (const s of list(opt(request, "DatedMarketingSegmentList"), "DatedMarketingSegment")) {
    map.set(reqText(s, "DatedMarketingSegmentId"), s);
  }
  return map;
}

export function requestedFlight(seg: Cursor, segments: Map<string, Cursor>): RequestedFlight {
  const ref = reqText(seg, "DatedMarketingSegmentRefId");
  const ms = segments.get(ref);
  if (!ms) throw invalid(`${seg.path}/DatedMarketingSegmentRefId`, `No DatedMarketingSegment ${ref} in Request/DatedMarketingSegmentList.`);
  const dep = req(ms, "Dep");
  const arr = req(ms, "Arrival");
  const when = optText(dep, "AircraftScheduledDateTime");
  if (!when) throw invalid(`${dep.path}/AircraftScheduledDateTime`, "A requested flight needs its scheduled departure.");
  const dt = dateTime(when, `${dep.path}/AircraftScheduledDateTime`);
  const flight: RequestedFlight = {
    paxSegmentId: reqText(seg, "PaxSegmentID"),
    marketingCarrier: reqText(ms, "CarrierDesigCode"),
    flightNumber: reqText(ms, "MarketingCarrierFlightNumberText"),
    origin: location(reqText(dep, "IATA_LocationCode"), `${dep.path}/IATA_LocationCode`),
    destination: location(reqText(arr, "IATA_LocationCode"), `${arr.path}/IATA_LocationCode`),
    departureDate: dt.date,
    departureTime: dt.time,
  };
  const cabin = optText(opt(opt(seg, "CabinTypeAssociationChoice"), "SegmentCabinType"), "CabinTypeCode");
  if (cabin) flight.cabinCode = cabin;
  return flight;
}

