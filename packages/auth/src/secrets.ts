import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { customAlphabet } from "nanoid";

/**
 * Credential material: identifiers, secrets and their stored forms. Secrets are 256-bit random
 * values; only their hashes reach the store, and nothing here ever logs them.
 */

// Client ids travel inside HTTP Basic (form-urlencoded, RFC 6749 2.3.1): keep them to characters
// that need no encoding, and easy to read aloud.
const idAlphabet = customAlphabet("0123456789abcdefghijkmnopqrstuvwxyz", 20);

export function newClientId(): string {
  return `ndc_${idAlphabet()}`;
}

export function newApiKeyId(): string {
  return `key_${idAlphabet()}`;
}

/** 256 bits, base64url: 43 characters, safe in Basic credentials and form fields. */
export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function newApiKey(): string {
  return `ndck_${randomBytes(32).toString("base64url")}`;
}

// OWASP's argon2id setting (19 MiB, 2 passes): strong, and quick enough for the token endpoint.
const ARGON2 = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;

export function hashSecret(secret: string): Promise<string> {
  return Bun.password.hash(secret, ARGON2);
}

export async function verifySecret(secret: string, hash: string): Promise<boolean> {
  try {
    return await Bun.password.verify(secret, hash);
  } catch {
    return false;
  }
}

/**
 * Verified against when the client is unknown, so an unknown client_id costs one argon2id
 * verify with the same parameters as a real one: no timing oracle, and the same price for
 * spraying. Fixed text (the hash of a random secret nobody kept), so even the first unknown
 * client costs a verify and not a hash plus a verify. Its parameters must stay those of ARGON2
 * (a test compares them).
 */
export const DECOY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$fj/ywcLbqIEDJdYjdYdrSWdb+P1NyJWRjBOdg3FL/+I$ocZuD0m+md/nXXJ8cfkwh+1rEQIpwkqQNdE9duhNGFM";

/** API keys are high-entropy, so a plain SHA-256 digest is a sound stored form and an index key. */
export function apiKeyDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
