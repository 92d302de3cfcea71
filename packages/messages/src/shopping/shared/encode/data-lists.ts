import { c, cOpt, el, type XNode } from "@ndc/xml";
import type { BaggageAllowanceView, MediaView } from "../view/common";
import type { DataListsView, PriceClassView, SeatProfileView, ServiceDefinitionView } from "../view/data-lists";
import { mediaFor, richMedia, taxonomy, taxonomies } from "./common";
import { datedMarketingSegment, datedOperatingLeg, datedOperatingSegment, paxSegment } from "./segments";

/** A list element only when it has entries: every 24.4 list requires at least one. */
function listOf<T>(name: string, items: T[], one: (t: T) => XNode): XNode | null {
  return items.length > 0 ? c(name, items.map(one)) : null;
}

/** Baggage text is composed by the gateway, so English (spec 4.8 rule 2). */
function baggageText(b: BaggageAllowanceView): string | undefined {
  const kind = b.type === "Checked" ? "Checked baggage" : "Carry-on baggage";
  if (b.pieces !== undefined && b.kgPerPiece !== undefined) {
    return `${kind}: ${b.pieces} ${b.pieces === 1 ? "piece" : "pieces"}, up to ${b.kgPerPiece} kg each.`;
  }
  if (b.pieces !== undefined) return `${kind}: ${b.pieces} ${b.pieces === 1 ? "piece" : "pieces"}.`;
  if (b.kgPerPiece !== undefined) return `${kind}: up to ${b.kgPerPiece} kg per piece.`;
  return undefined;
}

function baggageAllowance(b: BaggageAllowanceView): XNode {
  return c(
    "BaggageAllowance",
    b.taxonomy ? taxonomy(b.taxonomy) : null,
    c("BaggageAllowanceID", b.baggageAllowanceId),
    cOpt("DescText", baggageText(b)),
    b.pieces !== undefined ? c("PieceAllowance", c("TotalQty", b.pieces)) : null,
    cOpt("RFISC", b.rfisc),
    c("TypeCode", b.type),
    b.kgPerPiece !== undefined ? c("WeightAllowance", c("MaximumWeightMeasure", b.kgPerPiece), c("WeightUnitOfMeasurement", "KGM")) : null,
  );
}

function priceClass(p: PriceClassView, media: ReadonlyMap<string, MediaView>): XNode {
  return c(
    "PriceClass",
    p.cabin ? c("CabinType", c("CabinTypeCode", p.cabin.code), cOpt("CabinTypeName", p.cabin.name)) : null,
    cOpt("Code", p.code),
    p.descriptions.map((d) => c("Desc", c("DescText", d))),
    cOpt("DisplayOrderText", p.displayOrder),
    cOpt("FareBasisCode", p.fareBasisCode),
    c("Name", p.name),
    c("PriceClassID", p.priceClassId),
    mediaFor(p.mediaIds, media).map(richMedia),
  );
}

function seatProfile(s: SeatProfileView, media: ReadonlyMap<string, MediaView>): XNode {
  return c(
    "SeatProfile",
    s.descriptions.map((d) => c("MarketingInfo", c("DescText", d))),
    mediaFor(s.mediaIds, media).map(richMedia),
    s.characteristics.map((ch) => c("SeatCharacteristicCode", ch)),
    (s.keywords ?? []).map((k) => c("SeatKeywords", c("KeyText", k.key), c("ValueText", k.value))),
    s.pitchInches !== undefined ? el("cns:SeatPitchMeasure", { UnitCode: "Inches" }, s.pitchInches) : null,
    c("SeatProfileID", s.seatProfileId),
    s.widthInches !== undefined ? el("cns:SeatWidthMeasure", { UnitCode: "Inches" }, s.widthInches) : null,
  );
}

function association(a: ServiceDefinitionView["association"]): XNode | null {
  if (!a) return null;
  switch (a.kind) {
    case "bundle":
      return c(
        "ServiceDefinitionAssociation",
        c("ServiceBundle", a.maxQty !== undefined ? c("MaximumServiceQty", a.maxQty) : null, a.serviceDefinitionIds.map((id) => c("ServiceDefinitionRefID", id))),
      );
    case "baggage":
      return c("ServiceDefinitionAssociation", c("BaggageAllowanceRef", a.baggageAllowanceIds.map((id) => c("BaggageAllowanceRefID", id))));
    case "seatProfiles":
      return c("ServiceDefinitionAssociation", c("SeatProfileRef", a.seatProfileIds.map((id) => c("SeatProfileRefID", id))));
  }
}

/** ServiceDefinitionType has no RichMedia: a picture goes in a Desc as its URL with the caption as DescText. */
function serviceDefinition(s: ServiceDefinitionView, media: ReadonlyMap<string, MediaView>): XNode {
  return c(
    "ServiceDefinition",
    taxonomies(s.taxonomy),
    s.descriptions.map((d) => c("Desc", c("DescText", d))),
    mediaFor(s.mediaIds, media).map((m) => c("Desc", cOpt("DescText", m.caption), c("URL", m.uri))),
    c("Name", s.name),
    c("OwnerCode", s.ownerCode),
    cOpt("RFIC", s.rfic),
    cOpt("RFISC", s.rfisc),
    cOpt("ServiceCode", s.serviceCode),
    association(s.association),
    c("ServiceDefinitionID", s.serviceDefinitionId),
  );
}

export function mediaIndex(d: DataListsView): ReadonlyMap<string, MediaView> {
  return new Map(d.media.map((m) => [m.mediaId, m]));
}

/** DataLists (DataListsType), lists in schema order; null when there is nothing to list. */
export function dataLists(d: DataListsView): XNode | null {
  const media = mediaIndex(d);
  const children = [
    listOf("BaggageAllowanceList", d.baggageAllowances, baggageAllowance),
    listOf("DatedMarketingSegmentList", d.segments, datedMarketingSegment),
    listOf("DatedOperatingLegList", d.segments, datedOperatingLeg),
    listOf("DatedOperatingSegmentList", d.segments, datedOperatingSegment),
    listOf("OriginDestList", d.originDests, (o) =>
      c("OriginDest", c("DestCode", o.destination), c("OriginCode", o.origin), c("OriginDestID", o.originDestId), o.paxJourneyIds.map((j) => c("PaxJourneyRefID", j))),
    ),
    listOf("PaxJourneyList", d.journeys, (j) =>
      c("PaxJourney", cOpt("Duration", j.duration), c("PaxJourneyID", j.paxJourneyId), j.paxSegmentIds.map((s) => c("PaxSegmentRefID", s))),
    ),
    listOf("PaxList", d.passengers, (p) => c("Pax", c("PaxID", p.paxId), c("PTC", p.ptc))),
    listOf("PaxSegmentList", d.segments, paxSegment),
    listOf("PriceClassList", d.priceClasses, (p) => priceClass(p, media)),
    listOf("SeatProfileList", d.seatProfiles, (s) => seatProfile(s, media)),
    listOf("ServiceDefinitionList", d.serviceDefinitions, (s) => serviceDefinition(s, media)),
  ].filter((n): n is XNode => n !== null);
  return children.length > 0 ? c("DataLists", children) : null;
}
