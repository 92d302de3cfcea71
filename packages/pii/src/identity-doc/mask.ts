import { documentTypeName } from "./document-types";

/** The stored fields masking may look at. The number is deliberately not among them. */
export interface MaskableDocument {
  type: string;
  citizenship?: string | null;
  issuingCountry?: string | null;
  expiryDate?: string | null;
  holderSurname: string;
}

/** Spec 2.4 rule 2: exactly type, citizenship, issuing country, expiry and holder surname. */
export interface MaskedIdentityDoc {
  type: string;
  typeName: string;
  citizenship?: string;
  issuingCountry?: string;
  expiry?: string;
  holderSurname: string;
}

/** Spec 2.4 rule 4: the caller adds the warning identity_document_not_shown for each of these. */
export interface OmittedIdentityDoc {
  omitted: true;
}

/**
 * The view of a stored document for IATA_OrderViewRS. Built field by field from a closed list,
 * never by copying the stored row, so a column added later cannot leak into a response.
 */
export function maskedDocument(doc: MaskableDocument): MaskedIdentityDoc | OmittedIdentityDoc {
  const typeName = documentTypeName(doc.type);
  if (typeName === undefined) return { omitted: true };
  const out: MaskedIdentityDoc = { type: doc.type, typeName, holderSurname: doc.holderSurname };
  if (doc.citizenship) out.citizenship = doc.citizenship;
  if (doc.issuingCountry) out.issuingCountry = doc.issuingCountry;
  if (doc.expiryDate) out.expiry = doc.expiryDate;
  return out;
}

export function isOmitted(v: MaskedIdentityDoc | OmittedIdentityDoc): v is OmittedIdentityDoc {
  return "omitted" in v;
}
