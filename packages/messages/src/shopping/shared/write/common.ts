import { CATALOGUE, type ErrorCode } from "@ndc/errors";
import type { ByteWriter } from "@ndc/xml";
import type { FlightAssociation } from "../request-types";
import type { MediaView, ProcessingView, TaxonomyView, WarningView } from "../view/common";
import { mediaFor } from "../encode/common";

// The streaming twins of ../encode/common.ts (same elements, same order, same bytes), for the
// answers written straight to bytes: AirShoppingRS and OfferPriceRS.

export function taxonomies(w: ByteWriter, ts: TaxonomyView[] | undefined): void {
  if (!ts) return;
  for (const t of ts) {
    w.start("cns:AirlineTaxonomy");
    w.opt("cns:DescText", t.path);
    w.leaf("cns:TaxonomyCode", t.code);
    w.end("cns:AirlineTaxonomy");
  }
}

/** MediaResourceRefType: ContentType, DescText (the caption), ResourceURI. */
export function richMedia(w: ByteWriter, m: MediaView): void {
  w.start("cns:RichMedia");
  w.opt("cns:ContentType", m.contentType);
  w.opt("cns:DescText", m.caption);
  w.leaf("cns:ResourceURI", m.uri);
  w.end("cns:RichMedia");
}

export function richMediaFor(w: ByteWriter, ids: string[] | undefined, media: ReadonlyMap<string, MediaView>): void {
  if (!ids) return;
  for (const m of mediaFor(ids, media)) richMedia(w, m);
}

const ASSOCIATION: Record<FlightAssociation["kind"], [list: string, ref: string]> = {
  paxSegments: ["cns:PaxSegmentReferences", "cns:PaxSegmentRefID"],
  paxJourneys: ["cns:PaxJourneyRef", "cns:PaxJourneyRefID"],
  datedOperatingLegs: ["cns:DatedOperatingLegRef", "cns:DatedOperatingLegRefID"],
};

export function flightAssociation(w: ByteWriter, f: FlightAssociation): void {
  const [list, ref] = ASSOCIATION[f.kind];
  w.start("cns:OfferFlightAssociations");
  w.start(list);
  for (const id of f.ids) w.leaf(ref, id);
  w.end(list);
  w.end("cns:OfferFlightAssociations");
}

/** Repeated single-value elements (PaxRefID, SeatCharacteristicCode, ...). */
export function leaves(w: ByteWriter, name: string, values: readonly (string | number)[] | undefined): void {
  if (!values) return;
  for (const v of values) w.leaf(name, v);
}

function isCatalogued(code: string): code is ErrorCode {
  return Object.hasOwn(CATALOGUE, code);
}

/** A Warning, as ../encode/common.ts `warning` (catalogue codes with the catalogue's text and kind). */
export function warning(w: ByteWriter, v: WarningView): void {
  let text: string;
  let element: string | undefined;
  let kind: string;
  if ("text" in v) {
    text = v.text;
    element = v.element;
    kind = "warning";
  } else {
    if (!isCatalogued(v.code)) throw new Error(`Warning code ${v.code} is not in the catalogue and has no text.`);
    text = v.detail ? `${CATALOGUE[v.code].text} ${v.detail}` : CATALOGUE[v.code].text;
    element = v.element;
    kind = CATALOGUE[v.code].kind;
  }
  w.start("cns:Warning");
  w.leaf("cns:Code", v.code);
  w.leaf("cns:DescText", text);
  w.leaf("cns:LangCode", "EN");
  w.opt("cns:TagText", element);
  w.leaf("cns:TypeCode", kind);
  w.end("cns:Warning");
}

/** Processing (ResponseParametersResponseType): CurParameter then LangUsage, in schema order. */
export function processing(w: ByteWriter, p: ProcessingView | undefined): void {
  if (!p || (!p.currency && p.contentLanguages.length === 0)) return;
  w.start("cns:Processing");
  if (p.currency) {
    w.start("cns:CurParameter");
    w.leaf("cns:AppCode", "Actual");
    w.leaf("cns:CurCode", p.currency.code);
    w.leaf("cns:DecimalsAllowedNumber", p.currency.decimals);
    w.end("cns:CurParameter");
  }
  for (const l of p.contentLanguages) {
    w.start("cns:LangUsage");
    w.leaf("cns:LangCode", l);
    w.end("cns:LangUsage");
  }
  w.end("cns:Processing");
}
