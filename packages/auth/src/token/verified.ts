import { verifyToken, type TokenCheck } from "./format";

/** Past this many distinct tokens the memory starts over; a token lives 30 minutes anyway. */
const MAX_TOKENS = 10_000;

export interface VerifiedTokens {
  verify(token: string): TokenCheck;
}

/**
 * Tokens whose HMAC was already checked, with their claims: a seller sends the same token for
 * up to 30 minutes, and the signature of a given string under this process's key cannot change.
 * Only the signature check is remembered; lifetime, suspension, rotation, agency and scopes are
 * checked on every call (authenticate.ts). Refused tokens are never kept, so garbage sent by
 * anyone cannot fill the memory or push real tokens out.
 */
export function verifiedTokens(signingKey: Uint8Array): VerifiedTokens {
  const seen = new Map<string, TokenCheck & { ok: true }>();
  return {
    verify(token) {
      const hit = seen.get(token);
      if (hit) return hit;
      const check = verifyToken(token, signingKey);
      if (check.ok) {
        if (seen.size >= MAX_TOKENS) seen.clear();
        Object.freeze(check.claims);
        seen.set(token, check);
      }
      return check;
    },
  };
}
