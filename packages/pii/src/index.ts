export { loadFieldKey, type FieldKey } from "./field-key";

// Identity documents: rules, the airline's names for document types, masking.
export { validateIdentityDoc } from "./identity-doc/validate";
export type { Gender, IdentityDocInput, ValidIdentityDoc } from "./identity-doc/input";
export { IDENTITY_DOC_LIMITS, REFUSED_TYPES, GENDERS } from "./identity-doc/limits";
export { PADIS_7365 } from "./identity-doc/padis-7365";
export { ISO_3166_ALPHA2 } from "./identity-doc/countries";
export { isIsoDate } from "./identity-doc/iso-date";
export { DOCUMENT_TYPE_NAMES, documentTypeName } from "./identity-doc/document-types";
export { maskedDocument, isOmitted, type MaskableDocument, type MaskedIdentityDoc, type OmittedIdentityDoc } from "./identity-doc/mask";

// Field encryption (DESIGN 5).
export { sealField, openField, FieldDecryptError, type SealedField } from "./crypto/field-cipher";
export { additionalData, type FieldBinding } from "./crypto/aad";

// Storage.
export { insertIdentityDocuments, type NewIdentityDocument } from "./storage/insert";
export { readMaskedDocuments, type IdentityDocumentView } from "./storage/read-masked";
export { eraseIdentityDocuments, type ErasedBy } from "./storage/erase";
export { listErasures, type ErasureRow } from "./storage/erasures";
export { insertSignedOriginal, readSignedOriginal } from "./storage/signed-originals";
export { heldDocuments, type HeldDocument } from "./storage/held";
export { sweepRetention, travelEndOf } from "./storage/retention-sweep";
export { revealNumber, IdentityDocumentUnavailable } from "./storage/reveal";

// Retention (spec 8).
export { retentionDeadline, DEFAULT_TRAVEL_DOC_RETENTION_DAYS } from "./retention";
