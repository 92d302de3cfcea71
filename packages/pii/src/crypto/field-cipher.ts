import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { FieldKey } from "../field-key";
import { additionalData, type FieldBinding } from "./aad";

/** One encrypted value as stored: ciphertext with the 16-byte GCM tag appended, nonce, key version. */
export interface SealedField {
  ciphertext: Uint8Array;
  nonce: Uint8Array;
  keyVersion: number;
}

/**
 * Thrown when a value cannot be decrypted: wrong key or key version, a ciphertext moved to
 * another order, passenger or document, or tampering. The message never carries the value.
 */
export class FieldDecryptError extends Error {
  constructor(reason: string) {
    super(`identity document number could not be decrypted: ${reason}`);
    this.name = "FieldDecryptError";
  }
}

const ALGORITHM = "aes-256-gcm";
const NONCE_BYTES = 12; // 96 bits: the GCM nonce size that needs no extra hashing (NIST SP 800-38D)
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a fresh random nonce per value. Random (not counter) nonces because several
 * processes may encrypt under one key with no shared counter. NIST SP 800-38D caps random
 * 96-bit nonces at 2^32 values per key; one airline's documents stay far below that.
 */
export function sealField(plain: string, key: FieldKey, binding: FieldBinding): SealedField {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(ALGORITHM, key.key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(binding, key.version));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return { ciphertext: Buffer.concat([body, cipher.getAuthTag()]), nonce, keyVersion: key.version };
}

/** Decrypts and authenticates against the binding; throws FieldDecryptError on any mismatch. */
export function openField(sealed: SealedField, key: FieldKey, binding: FieldBinding): string {
  // There is no key rotation short of bulk re-encryption (spec 8), so one key version is live.
  if (sealed.keyVersion !== key.version)
    throw new FieldDecryptError(`it was encrypted under key version ${sealed.keyVersion}, the loaded key is version ${key.version}`);
  if (sealed.nonce.length !== NONCE_BYTES || sealed.ciphertext.length < TAG_BYTES)
    throw new FieldDecryptError("the stored nonce or ciphertext is malformed");
  const data = Buffer.from(sealed.ciphertext);
  const decipher = createDecipheriv(ALGORITHM, key.key, sealed.nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(additionalData(binding, sealed.keyVersion));
  decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new FieldDecryptError("authentication failed (wrong key, moved to another order, passenger or document, or altered)");
  }
}
