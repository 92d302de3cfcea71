import { CATALOGUE, type ErrorCode } from "@ndc/errors";
import { c, cOpt, warningNode, type XNode } from "@ndc/xml";
import type { FlightAssociation } from "../request-types";
import type { MediaView, ProcessingView, TaxonomyView, WarningView } from "../view/common";

export function taxonomy(t: TaxonomyView): XNode {
  return c("AirlineTaxonomy", cOpt("DescText", t.path), c("TaxonomyCode", t.code));
}

export function taxonomies(ts: TaxonomyView[] | undefined): XNode[] {
  return (ts ?? []).map(taxonomy);
}

/** MediaResourceRefType: ContentType, DescText (the caption), ResourceURI. */
export function richMedia(m: MediaView): XNode {
  return c("RichMedia", cOpt("ContentType", m.contentType), cOpt("DescText", m.caption), c("ResourceURI", m.uri));
}

/** Resolves media ids against the view's media list; an unknown id is a bug in the caller. */
export function mediaFor(ids: string[] | undefined, media: ReadonlyMap<string, MediaView>): MediaView[] {
  return (ids ?? []).map((id) => {
    const m = media.get(id);
    if (!m) throw new Error(`Media ${id} is referenced but not in the media list.`);
    return m;
  });
}

export function flightAssociation(f: FlightAssociation): XNode {
  switch (f.kind) {
    case "paxSegments":
      return c("OfferFlightAssociations", c("PaxSegmentReferences", f.ids.map((id) => c("PaxSegmentRefID", id))));
    case "paxJourneys":
      return c("OfferFlightAssociations", c("PaxJourneyRef", f.ids.map((id) => c("PaxJourneyRefID", id))));
    case "datedOperatingLegs":
      return c("OfferFlightAssociations", c("DatedOperatingLegRef", f.ids.map((id) => c("DatedOperatingLegRefID", id))));
  }
}

function isCatalogued(code: string): code is ErrorCode {
  return Object.hasOwn(CATALOGUE, code);
}

/** A Warning: catalogue codes through the shared warningNode; others with their own English text. */
export function warning(w: WarningView): XNode {
  if ("text" in w) {
    return c("Warning", c("Code", w.code), c("DescText", w.text), c("LangCode", "EN"), cOpt("TagText", w.element), c("TypeCode", "warning"));
  }
  if (!isCatalogued(w.code)) throw new Error(`Warning code ${w.code} is not in the catalogue and has no text.`);
  if (!w.element) return warningNode(w.code, w.detail);
  const text = w.detail ? `${CATALOGUE[w.code].text} ${w.detail}` : CATALOGUE[w.code].text;
  return c("Warning", c("Code", w.code), c("DescText", text), c("LangCode", "EN"), c("TagText", w.element), c("TypeCode", CATALOGUE[w.code].kind));
}

/** Processing (ResponseParametersResponseType): CurParameter then LangUsage, in schema order. */
/**
 * Processing of an answer that carries no airline content, only text the gateway composes
 * (spec 4.8 rule 2: English, whatever language was asked for): its content language is en,
 * and nothing fell back, so no content_language_fallback Warning.
 */
export const GATEWAY_TEXT_ONLY: ProcessingView = { contentLanguages: ["en"] };

export function processing(p: ProcessingView | undefined): XNode | null {
  if (!p || (!p.currency && p.contentLanguages.length === 0)) return null;
  return c(
    "Processing",
    p.currency ? c("CurParameter", c("AppCode", "Actual"), c("CurCode", p.currency.code), c("DecimalsAllowedNumber", p.currency.decimals)) : null,
    p.contentLanguages.map((l) => c("LangUsage", c("LangCode", l))),
  );
}
