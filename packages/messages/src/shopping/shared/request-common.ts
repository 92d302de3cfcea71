import type { Envelope } from "@ndc/xml";
import { invalid, list, opt, optText, reqText, texts, type Cursor } from "./cursor";
import type { CabinPreference, FlightAssociation, PaxTypeCode, ResponsePreferences, ServiceCriterion, ShoppingPax } from "./request-types";
import { bool, currency, language, rfic, wholeNumber } from "./values";

/** The Request element of a decoded envelope, as a cursor; its absence is a malformed request. */
export function requestCursor(envelope: Envelope): Cursor {
  if (!envelope.request) throw invalid("Request", "Request is required.");
  return { el: envelope.request, path: "Request" };
}

const PREF_LEVELS = ["Preferred", "Required", "Exclude"] as const;

export function prefLevel(parent: Cursor, name = "PrefLevel"): CabinPreference["preference"] | undefined {
  const p = opt(parent, name);
  if (!p) return undefined;
  const code = reqText(p, "PrefLevelCode");
  if (!(PREF_LEVELS as readonly string[]).includes(code)) {
    throw invalid(`${p.path}/PrefLevelCode`, "PrefLevelCode is Preferred, Required or Exclude.");
  }
  return code as CabinPreference["preference"];
}

/** ResponseParameters (currency, LangUsage) and PayloadAttributes/PrimaryLangID. */
export function responsePreferences(request: Cursor, envelope: Envelope): ResponsePreferences {
  const rp = opt(request, "ResponseParameters");
  const curs = list(rp, "CurParameter").map((c) => ({
    code: currency(reqText(c, "CurCode"), `${c.path}/CurCode`),
    app: optText(c, "AppCode"),
  }));
  const chosen = curs.find((c) => c.app === "Requested") ?? curs[0];
  const langUsage = langUsageOf(rp);
  const primary = primaryLanguage(envelope);
  const prefs: ResponsePreferences = { currency: chosen?.code, langUsage };
  if (langUsage.length > 0) {
    prefs.language = langUsage[0];
    prefs.languageSource = "LangUsage";
  } else if (primary) {
    prefs.language = primary;
    prefs.languageSource = "PrimaryLangID";
  }
  return prefs;
}

/** Every LangUsage/LangCode under a message's response parameters, checked. */
function langUsageOf(parameters: Cursor | undefined): string[] {
  return list(parameters, "LangUsage").map((l) => language(reqText(l, "LangCode"), `${l.path}/LangCode`));
}

/** PayloadAttributes/PrimaryLangID, checked. */
function primaryLanguage(envelope: Envelope): string | undefined {
  const primary = envelope.payload.primaryLangId;
  if (primary !== undefined) language(primary, "PayloadAttributes/PrimaryLangID");
  return primary;
}

/**
 * The content languages a request asks for (spec 4.8 rule 1), the one reader of the order
 * messages: every LangUsage of `parameters` (the message's ResponseParametersRequestType
 * element), else PayloadAttributes/PrimaryLangID; empty: the default language. A message whose
 * 24.4 type has no LangUsage (OrderChangeRQ: OrderChangeParameters) passes no parameters.
 */
export function contentLanguages(envelope: Envelope, parameters?: Cursor): string[] {
  const langUsage = langUsageOf(parameters);
  return requestedLanguages({ langUsage, language: langUsage[0] ?? primaryLanguage(envelope) });
}

/** The same rule over already decoded preferences (responsePreferences): every LangUsage, else the one language. */
export function requestedLanguages(prefs: Pick<ResponsePreferences, "langUsage" | "language">): string[] {
  if (prefs.langUsage.length > 0) return prefs.langUsage;
  return prefs.language ? [prefs.language] : [];
}

function ptcFromAge(age: number): PaxTypeCode {
  if (age < 2) return "INF";
  if (age < 12) return "CHD";
  return "ADT";
}

/**
 * One Pax (PaxType). Deliberately reads PaxID, PTC and AgeMeasure only: IdentityDoc and every
 * other personal element are never touched, so they cannot reach a model, a store or a log.
 */
export function shoppingPax(p: Cursor): ShoppingPax {
  const paxId = reqText(p, "PaxID");
  const ptc = optText(p, "PTC");
  const ageText = optText(p, "AgeMeasure");
  const age = ageText === undefined ? undefined : wholeNumber(ageText, `${p.path}/AgeMeasure`, 0, 130);
  if (ptc !== undefined) {
    if (!/^[A-Z0-9]{3}$/.test(ptc)) throw invalid(`${p.path}/PTC`, "PTC is a 3-character passenger type code such as ADT, CHD or INF.");
    return { paxId, ptc, ptcSource: "PTC", ...(age !== undefined ? { age } : {}) };
  }
  if (age !== undefined) return { paxId, ptc: ptcFromAge(age), ptcSource: "AgeMeasure", age };
  return { paxId, ptc: "ADT", ptcSource: "default" };
}

/** Passengers of a list; PaxIDs must be unique because everything else refers to them. */
export function paxes(cursors: Cursor[]): ShoppingPax[] {
  const seen = new Set<string>();
  return cursors.map((c) => {
    const pax = shoppingPax(c);
    if (seen.has(pax.paxId)) throw invalid(`${c.path}/PaxID`, `PaxID ${pax.paxId} is used twice.`);
    seen.add(pax.paxId);
    return pax;
  });
}

/** OfferCriteria/ServiceCriteria (ServiceCriteriaType). */
export function serviceCriteria(parent: Cursor | undefined): ServiceCriterion[] {
  return list(opt(parent, "OfferCriteria"), "ServiceCriteria").map(serviceCriterion);
}

/** One ServiceCriteria (ServiceCriteriaType), wherever a message carries it (OrderReshopRQ: OrderCriteria). */
export function serviceCriterion(s: Cursor): ServiceCriterion {
  const inc = opt(s, "IncludeInd");
  const pricing = opt(s, "ServicePricingOnlyInd");
  const rficText = optText(s, "RFIC");
  const criterion: ServiceCriterion = {
    include: inc ? bool(inc.el.text.trim(), inc.path) : true,
    rfisc: texts(s, "RFISC"),
    taxonomyCodes: texts(s, "TaxonomyCode"),
  };
  if (rficText !== undefined) criterion.rfic = rfic(rficText, `${s.path}/RFIC`);
  const pref = prefLevel(s);
  if (pref) criterion.preference = pref;
  if (pricing) criterion.pricingOnly = bool(pricing.el.text.trim(), pricing.path);
  return criterion;
}

/** OfferFlightAssociations (a choice of three reference lists), if present. */
export function flightAssociation(parent: Cursor): FlightAssociation | undefined {
  const a = opt(parent, "OfferFlightAssociations");
  if (!a) return undefined;
  const legs = opt(a, "DatedOperatingLegRef");
  if (legs) return { kind: "datedOperatingLegs", ids: nonEmpty(legs, "DatedOperatingLegRefID") };
  const journeys = opt(a, "PaxJourneyRef");
  if (journeys) return { kind: "paxJourneys", ids: nonEmpty(journeys, "PaxJourneyRefID") };
  const segs = opt(a, "PaxSegmentReferences");
  if (segs) return { kind: "paxSegments", ids: nonEmpty(segs, "PaxSegmentRefID") };
  throw invalid(a.path, "OfferFlightAssociations needs DatedOperatingLegRef, PaxJourneyRef or PaxSegmentReferences.");
}

/** A reference list the schema requires at least once. */
export function nonEmpty(parent: Cursor, name: string): string[] {
  const ids = texts(parent, name);
  if (ids.length === 0) throw invalid(`${parent.path}/${name}`, `${name} is required.`);
  return ids;
}
