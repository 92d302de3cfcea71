import type { MaskedIdentityDoc } from "@ndc/pii";

/**
 * A passenger of an order. Identity documents come only masked (@ndc/pii maskedDocument): the
 * type is there so this model cannot even hold a document number. A document the airline
 * cannot name is left out by the domain, which adds the warning identity_document_not_shown.
 */
export interface OrderPaxView {
  paxId: string;
  ptc: string;
  birthDate?: string;
  /** As booked (F, M, U, X). */
  gender?: string;
  citizenship?: string;
  title?: string;
  givenNames: string[];
  middleNames?: string[];
  surname: string;
  suffix?: string;
  contactInfoId?: string;
  loyalty?: { programme: string; accountNumber?: string; tierCode?: string }[];
  identityDocs: MaskedIdentityDoc[];
}

export interface OrderContactView {
  contactInfoId: string;
  emails: string[];
  phones?: string[];
}
