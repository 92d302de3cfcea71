/** A passenger's name as a correction sets it (24.4 IndividualType's name parts; checked at decode). */
export interface PaxName {
  title?: string;
  givenNames: string[];
  surname: string;
}

/** 24.4 ProperNameType (surname, given names) and SupplementNameType (title): xs:token of 1-64 and 1-16 characters. */
const PROPER_MAX = 64;
const SUPPLEMENT_MAX = 16;
/** IndividualType allows up to five GivenName. */
const GIVEN_NAMES_MAX = 5;

/**
 * A name typed by a person rather than decoded from XML (the staff console's correction): tokens
 * as xs:token reads them (trimmed, inner spaces collapsed), checked against the 24.4 types the
 * OrderViewRS will carry them in. Returns the name, or the field at fault and why.
 */
export function paxNameOf(input: { title?: string; givenNames: readonly string[]; surname: string }): { name: PaxName } | { field: "title" | "givenNames" | "surname"; detail: string } {
  const token = (s: string) => s.replace(/\s+/g, " ").trim();
  // Control characters cannot be written in XML 1.0, nor belong in a name.
  const bad = (s: string) => /[\u0000-\u001f\u007f]/.test(s);
  const surname = token(input.surname);
  if (!surname || surname.length > PROPER_MAX || bad(surname)) return { field: "surname", detail: `surname is 1 to ${PROPER_MAX} characters.` };
  const givenNames = input.givenNames.map(token).filter(Boolean);
  if (givenNames.length > GIVEN_NAMES_MAX || givenNames.some((g) => g.length > PROPER_MAX || bad(g))) return { field: "givenNames", detail: `givenNames is at most ${GIVEN_NAMES_MAX} names of 1 to ${PROPER_MAX} characters.` };
  const title = input.title === undefined ? "" : token(input.title);
  if (title.length > SUPPLEMENT_MAX || bad(title)) return { field: "title", detail: `title is at most ${SUPPLEMENT_MAX} characters.` };
  return { name: { ...(title ? { title } : {}), givenNames, surname } };
}
