export { addSigningKey, listSigningKeys, revokeSigningKey, signingKeysOf, type SigningKeyRow } from "./agreements";
export { readSigningKey, KeyRefused, type SigningKeyInfo } from "./keys";
export { verifySignedMessage, type Verification, type Verified, type VerifyKey } from "./verify";
export { signEnveloped, type SignerKey } from "./sign";
export type { SignatureForm } from "./locate";
export * from "./algorithms";
export * from "./tables";
export { keepEvidence, evidenceOf, brokenEvidenceAt, evidenceHash, type EvidenceInput, type EvidenceRow, type OrderEvidence } from "./evidence";
export { loadAirlineKey, type AirlineKey } from "./airline-key";
