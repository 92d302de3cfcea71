import { expect, test } from "bun:test";
import { DOCUMENT_TYPE_NAMES, PADIS_7365, REFUSED_TYPES, validateIdentityDoc } from "@ndc/pii";
import { validInput } from "./helpers";

test("every type the airline names is a PADIS 7365 code", () => {
  const outside = [...DOCUMENT_TYPE_NAMES.keys()].filter((c) => !PADIS_7365.has(c));
  expect(outside).toEqual([]);
});

test("the refused types 711 and 9PT have no display name", () => {
  expect([...REFUSED_TYPES].sort()).toEqual(["711", "9PT"]);
  for (const c of REFUSED_TYPES) expect(DOCUMENT_TYPE_NAMES.has(c)).toBe(false);
});

test("the usual documents are named; processing indicators are not", () => {
  for (const c of ["PT", "PD", "VI", "709", "710", "IP"]) expect(DOCUMENT_TYPE_NAMES.has(c)).toBe(true);
  for (const c of ["AF", "ACK", "SA", "1", "F1", "CR", "AEA"]) expect(DOCUMENT_TYPE_NAMES.has(c)).toBe(false);
});

test("every named type passes validation, and names are non-empty English text", () => {
  for (const [code, name] of DOCUMENT_TYPE_NAMES) {
    expect(validateIdentityDoc(validInput({ IdentityDocTypeCode: code })).type).toBe(code);
    expect(name).toMatch(/^[A-Z][A-Za-z0-9 ,.'-]+$/);
  }
});
