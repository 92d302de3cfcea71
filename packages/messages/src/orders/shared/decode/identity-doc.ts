import { GatewayError } from "@ndc/errors";
import type { IdentityDocInput } from "@ndc/pii";
import type { XmlElement } from "@ndc/xml";
import { list, opt, type Cursor } from "../../../shopping/shared/cursor";
import { walk } from "./scan";

/** The single-valued leaves of IdentityDocType the gateway reads (spec 2.4), by their 24.4 names. */
const SINGLE = [
  "IdentityDocTypeCode",
  "IdentityDocID",
  "CitizenshipCountryCode",
  "IssuingCountryCode",
  "ResidenceCountryCode",
  "IssueDate",
  "ExpiryDate",
  "Birthdate",
  "BirthplaceText",
  "GenderCode",
  "Surname",
  "SuffixName",
  "TitleName",
] as const;

/** Raw text: the rules (lengths, codes, dates) are @ndc/pii's validateIdentityDoc's job, not ours. */
function raw(parent: Cursor, name: string): string | undefined {
  const c = opt(parent, name);
  return c ? c.el.text.trim() : undefined;
}

/**
 * One IdentityDoc, field by field from a closed list. Visa and AddlName are siblings of these
 * fields and are simply never looked up, so nothing of them can reach the model (spec 2.4).
 */
export function identityDoc(d: Cursor): IdentityDocInput {
  const doc: IdentityDocInput = {};
  for (const name of SINGLE) {
    const v = raw(d, name);
    if (v !== undefined) doc[name] = v;
  }
  const given = list(d, "GivenName").map((g) => g.el.text.trim());
  if (given.length > 0) doc.GivenName = given;
  const middle = list(d, "MiddleName").map((m) => m.el.text.trim());
  if (middle.length > 0) doc.MiddleName = middle;
  return doc;
}

/**
 * Identity documents are taken at OrderCreate only (spec 2.4, 7.3). On any other message a
 * document anywhere in the request (DataLists, UpdatePax, or somewhere the schema does not
 * even allow one) is refused naming where it was, never dropped; its content is not read.
 */
export function refuseIdentityDocs(root: XmlElement): void {
  for (const { el, path } of walk(root)) {
    if (el.name === "IdentityDoc") {
      throw new GatewayError("identity_document_not_updatable", { element: path });
    }
  }
}
