import { GatewayError } from "@ndc/errors";
import { ISO_3166_ALPHA2 } from "./countries";
import type { Gender, IdentityDocInput, ValidIdentityDoc } from "./input";
import { isIsoDate } from "./iso-date";
import { GENDERS, IDENTITY_DOC_LIMITS as L, REFUSED_TYPES } from "./limits";
import { PADIS_7365 } from "./padis-7365";

// Error details name the element and the rule, never the value: the value may be a document
// number or a name, and error texts reach responses and logs.
const at = (name: string) => `IdentityDoc/${name}`;
const invalid = (name: string, detail: string) =>
  new GatewayError("identity_document_invalid", { element: at(name), detail });

// Code points, not UTF-16 units: a limit of 64 characters must not shrink to 32 for names in
// scripts outside the Basic Multilingual Plane.
const length = (s: string) => [...s].length;

/** Trimmed text, or undefined when absent or blank (an empty element says nothing). */
function text(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

function required(name: string, v: string | undefined, max: number): string {
  const t = text(v);
  if (t === undefined) throw invalid(name, `${name} is required.`);
  return limited(name, t, max)!;
}

function limited(name: string, v: string | undefined, max: number): string | undefined {
  if (v !== undefined && length(v) > max) throw invalid(name, `${name} is longer than ${max} characters.`);
  return v;
}

function names(name: string, v: string[] | undefined, maxEntries: number, max: number): string[] {
  const list = v ?? [];
  if (list.length > maxEntries) throw invalid(name, `At most ${maxEntries} ${name} entries are accepted.`);
  return list.map(text).filter((n): n is string => n !== undefined).map((n) => limited(name, n, max)!);
}

function country(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  // Upper case only, as in the standard: "fr" is refused rather than guessed at.
  if (!ISO_3166_ALPHA2.has(v.trim()))
    throw new GatewayError("identity_document_country_invalid", { element: at(name), detail: `${name} must be an ISO 3166-1 alpha-2 code.` });
  return v.trim();
}

function date(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!isIsoDate(v.trim())) throw invalid(name, `${name} must be a valid date (YYYY-MM-DD).`);
  return v.trim();
}

function typeCode(v: string | undefined): string {
  const t = text(v);
  const element = at("IdentityDocTypeCode");
  if (t === undefined) throw new GatewayError("identity_document_type_unknown", { element, detail: "IdentityDocTypeCode is required." });
  if (!PADIS_7365.has(t) || REFUSED_TYPES.has(t))
    throw new GatewayError("identity_document_type_unknown", { element, detail: "The code is outside PADIS 7365 or refused (711, 9PT)." });
  return t;
}

/**
 * Spec 2.4, field by field; the first failing rule throws a GatewayError
 * (identity_document_type_unknown, identity_document_country_invalid or identity_document_invalid).
 */
export function validateIdentityDoc(input: IdentityDocInput): ValidIdentityDoc {
  const type = typeCode(input.IdentityDocTypeCode);
  const number = required("IdentityDocID", input.IdentityDocID, L.number);
  const holderSurname = required("Surname", input.Surname, L.surname);
  const gender = text(input.GenderCode);
  if (input.GenderCode !== undefined && !GENDERS.has(gender ?? ""))
    throw invalid("GenderCode", "GenderCode must be F, M, U or X (ICAO Doc 9303).");
  return {
    type,
    number,
    citizenship: country("CitizenshipCountryCode", input.CitizenshipCountryCode),
    issuingCountry: country("IssuingCountryCode", input.IssuingCountryCode),
    residenceCountry: country("ResidenceCountryCode", input.ResidenceCountryCode),
    issueDate: date("IssueDate", input.IssueDate),
    expiryDate: date("ExpiryDate", input.ExpiryDate),
    birthDate: date("Birthdate", input.Birthdate),
    birthplace: limited("BirthplaceText", text(input.BirthplaceText), L.birthplace),
    gender: gender as Gender | undefined,
    holderSurname,
    givenNames: names("GivenName", input.GivenName, L.givenNames, L.givenName),
    middleNames: names("MiddleName", input.MiddleName, L.middleNames, L.middleName),
    suffix: limited("SuffixName", text(input.SuffixName), L.suffix),
    title: limited("TitleName", text(input.TitleName), L.title),
  };
}
