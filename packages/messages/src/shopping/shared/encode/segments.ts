import { c, cOpt, type XNode } from "@ndc/xml";
import type { SegmentView } from "../view/data-lists";

/**
 * A flight is four 24.4 elements: the seller's PaxSegment, the DatedMarketingSegment it sells,
 * the DatedOperatingSegment that flies it and its DatedOperatingLeg. Their ids are derived from
 * the PaxSegmentID so one flight's four elements are easy to match by eye.
 */
export const marketingId = (s: SegmentView) => `${s.paxSegmentId}-MKT`;
export const operatingId = (s: SegmentView) => `${s.paxSegmentId}-OPR`;
export const legId = (s: SegmentView) => s.legId ?? `${s.paxSegmentId}-LEG`;

function point(name: string, code: string, at: string, station: string | undefined): XNode {
  return c(name, c("AircraftScheduledDateTime", at), c("IATA_LocationCode", code), cOpt("StationName", station));
}

export function datedMarketingSegment(s: SegmentView): XNode {
  return c(
    "DatedMarketingSegment",
    point("Arrival", s.destination, s.arrival, s.destinationName),
    c("CarrierDesigCode", s.marketing.code),
    cOpt("CarrierName", s.marketing.name),
    c("DatedMarketingSegmentId", marketingId(s)),
    c("DatedOperatingSegmentRefId", operatingId(s)),
    point("Dep", s.origin, s.departure, s.originName),
    c("MarketingCarrierFlightNumberText", s.marketing.flightNumber),
  );
}

export function datedOperatingLeg(s: SegmentView): XNode {
  const a = s.aircraft;
  return c(
    "DatedOperatingLeg",
    point("Arrival", s.destination, s.arrival, s.destinationName),
    a?.name ? c("CarrierAircraftType", c("CarrierAircraftTypeName", a.name)) : null,
    c("DatedOperatingLegID", legId(s)),
    point("Dep", s.origin, s.departure, s.originName),
    a?.iataCode ? c("IATA_AircraftType", c("IATA_AircraftTypeCode", a.iataCode)) : null,
  );
}

export function datedOperatingSegment(s: SegmentView): XNode {
  const op = s.operating ?? s.marketing;
  const number = s.operating ? s.operating.flightNumber : s.marketing.flightNumber;
  return c(
    "DatedOperatingSegment",
    c("CarrierDesigCode", op.code),
    cOpt("CarrierName", op.name),
    c("DatedOperatingLegRefID", legId(s)),
    c("DatedOperatingSegmentId", operatingId(s)),
    cOpt("Duration", s.duration),
    cOpt("OperatingCarrierFlightNumberText", number),
    s.secureFlight ? c("SecureFlightInd", "true") : null,
  );
}

export function paxSegment(s: SegmentView): XNode {
  return c(
    "PaxSegment",
    s.cabin ? c("CabinTypeAssociationChoice", c("SegmentCabinType", c("CabinTypeCode", s.cabin.code), cOpt("CabinTypeName", s.cabin.name))) : null,
    c("DatedMarketingSegmentRefId", marketingId(s)),
    cOpt("MarketingCarrierRBD_Code", s.rbd),
    c("PaxSegmentID", s.paxSegmentId),
  );
}
