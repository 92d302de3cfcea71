import { c, cOpt, type XNode } from "@ndc/xml";
import type { MaskedIdentityDoc } from "@ndc/pii";
import type { OrderContactView, OrderPaxView } from "../view/pax";

/**
 * IdentityDocType requires IdentityDocID, and OrderViewRS offers no schema where it is optional
 * (it imports the common types only). The slot is filled with this fixed word, the same for
 * every document, so nothing of the number (not even its length) is ever rendered (spec 2.4).
 */
export const MASKED_DOCUMENT_ID = "MASKED";

/** The masked document: type, citizenship, issuing country, expiry, holder surname; children in schema order. */
function identityDoc(d: MaskedIdentityDoc): XNode {
  return c(
    "IdentityDoc",
    cOpt("CitizenshipCountryCode", d.citizenship),
    cOpt("ExpiryDate", d.expiry),
    c("IdentityDocID", MASKED_DOCUMENT_ID),
    c("IdentityDocTypeCode", d.type),
    cOpt("IssuingCountryCode", d.issuingCountry),
    c("Surname", d.holderSurname),
  );
}

function pax(p: OrderPaxView): XNode {
  return c(
    "Pax",
    cOpt("Birthdate", p.birthDate),
    cOpt("CitizenshipCountryCode", p.citizenship),
    cOpt("ContactInfoRefID", p.contactInfoId),
    p.identityDocs.map(identityDoc),
    c(
      "Individual",
      cOpt("GenderCode", p.gender),
      p.givenNames.map((g) => c("GivenName", g)),
      (p.middleNames ?? []).map((m) => c("MiddleName", m)),
      cOpt("SuffixName", p.suffix),
      c("Surname", p.surname),
      cOpt("TitleName", p.title),
    ),
    (p.loyalty ?? []).map((l) =>
      c("LoyaltyProgramAccount", cOpt("AccountNumber", l.accountNumber), c("LoyaltyProgram", c("Carrier", c("AirlineDesigCode", l.programme))), cOpt("TierCode", l.tierCode)),
    ),
    c("PaxID", p.paxId),
    c("PTC", p.ptc),
  );
}

export function paxList(ps: OrderPaxView[]): XNode | null {
  return ps.length > 0 ? c("PaxList", ps.map(pax)) : null;
}

export function contactInfoList(cs: OrderContactView[]): XNode | null {
  if (cs.length === 0) return null;
  return c(
    "ContactInfoList",
    cs.map((ci) =>
      c(
        "ContactInfo",
        c("ContactInfoID", ci.contactInfoId),
        ci.emails.map((e) => c("EmailAddress", c("EmailAddressText", e))),
        (ci.phones ?? []).map((ph) => c("Phone", c("PhoneNumber", ph))),
      ),
    ),
  );
}
