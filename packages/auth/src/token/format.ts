import { createHmac } from "node:crypto";
import { constantTimeEqual } from "../secrets";

/**
 * Access tokens are self-contained and HMAC-SHA256 signed:
 *   ndc1.<base64url(JSON claims)>.<base64url(HMAC-SHA256(key, "ndc1." + claims))>
 * The claims name the client, the agency it sells as (spec 5.1), the secret generation and token
 * epoch it was issued under (so rotation and suspension revoke it), the scopes and the expiry.
 * Nothing personal.
 */
export const TOKEN_PREFIX = "ndc1";
export const TOKEN_LIFETIME_SECONDS = 1800;
/** Clocks of gateways sharing a database may differ this much; an iat further ahead is refused. */
export const TOKEN_CLOCK_SKEW_SECONDS = 60;

export interface TokenClaims {
  /** client_id */
  cid: string;
  /** agency_id of the client's own agency at issue; re-checked against the registry on every call */
  agy: string;
  /** secret_generation at issue */
  gen: number;
  /** token_epoch at issue (bumped by rotation and suspension) */
  epo: number;
  /** granted scopes, space-separated */
  scp: string;
  /** issued at, seconds since the epoch */
  iat: number;
  /** expires at, seconds since the epoch */
  exp: number;
}

function mac(key: Uint8Array, signed: string): Buffer {
  return createHmac("sha256", key).update(signed).digest();
}

export function signToken(claims: TokenClaims, key: Uint8Array): string {
  const signed = `${TOKEN_PREFIX}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${signed}.${mac(key, signed).toString("base64url")}`;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: "malformed" | "signature" };

const B64URL = /^[A-Za-z0-9_-]+$/;

/** Checks shape and signature only; expiry and revocation are the caller's (they need the clock and the store). */
export function verifyToken(token: string, key: Uint8Array): TokenCheck {
  if (token.length > 4096) return { ok: false, reason: "malformed" };
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== TOKEN_PREFIX || !B64URL.test(parts[1]!) || !B64URL.test(parts[2]!)) {
    return { ok: false, reason: "malformed" };
  }
  const expected = mac(key, `${parts[0]}.${parts[1]}`);
  if (!constantTimeEqual(expected, Buffer.from(parts[2]!, "base64url"))) return { ok: false, reason: "signature" };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  return isClaims(claims) ? { ok: true, claims } : { ok: false, reason: "malformed" };
}

function isClaims(c: unknown): c is TokenClaims {
  if (!c || typeof c !== "object") return false;
  const o = c as Record<string, unknown>;
  return (
    typeof o.cid === "string" &&
    typeof o.agy === "string" &&
    typeof o.scp === "string" &&
    Number.isInteger(o.gen) &&
    Number.isInteger(o.epo) &&
    Number.isInteger(o.iat) &&
    Number.isInteger(o.exp)
  );
}
