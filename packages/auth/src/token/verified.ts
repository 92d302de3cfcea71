import { verifyToken, type TokenCheck, type TokenClaims } from "./format";

/** Past this many distinct tokens the memory starts over; a token lives 30 minutes anyway. */
const MAX_TOKENS = 10_000;

/** A token's claims, with its scopes already split (they are intersected with the registry's on every call). */
export type VerifiedToken = { ok: true; claims: Readonly<TokenClaims>; asked: readonly string[] };

export interface VerifiedTokens {
  verify(token: string): VerifiedToken | Extract<TokenCheck, { ok: false }>;
}

/**
 * Tokens whose HMAC was already checked, with their claims: a seller sends the same token for
 * up to 30 minutes, and the signature of a given string under one key cannot change. One memory
 * per key: a key replaced in the store brings a new, empty one (current-key.ts).
 * Only the signature check is remembered; lifetime, suspension, rotation, agency and scopes are
 * checked on every call (authenticate.ts). Refused tokens are never kept, so garbage sent by
 * anyone cannot fill the memory or push real tokens out.
 */
export function verifiedTokens(signingKey: Uint8Array): VerifiedTokens {
  const seen = new Map<string, VerifiedToken>();
  return {
    verify(token) {
      const hit = seen.get(token);
      if (hit) return hit;
      const check = verifyToken(token, signingKey);
      if (!check.ok) return check;
      const verified: VerifiedToken = Object.freeze({
        ok: true as const,
        claims: Object.freeze(check.claims),
        asked: Object.freeze(check.claims.scp.split(" ").filter(Boolean)),
      });
      if (seen.size >= MAX_TOKENS) seen.clear();
      seen.set(token, verified);
      return verified;
    },
  };
}
