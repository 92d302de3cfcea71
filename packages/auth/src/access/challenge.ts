import { GatewayError } from "@ndc/errors";

/** The challenges of RFC 6750 3 and RFC 6749 5.2 (the edge sends them as WWW-Authenticate). */
export const REALM = "ndc-gateway";

/** Header values may not hold quotes or backslashes (RFC 6750 3: error_description charset). */
function quoted(s: string): string {
  return s.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, " ");
}

export function basicChallenge(): string {
  return `Basic realm="${REALM}"`;
}

/**
 * 401 invalid_token. With no description the request carried no bearer credentials at all,
 * and RFC 6750 3.1 says the challenge then names no error.
 */
export function invalidToken(description?: string): GatewayError {
  const challenge = description
    ? `Bearer realm="${REALM}", error="invalid_token", error_description="${quoted(description)}"`
    : `Bearer realm="${REALM}"`;
  return new GatewayError("invalid_token", {
    detail: description ?? "Send Authorization: Bearer <ACCESS_TOKEN> from POST /oauth/token.",
    challenge,
  });
}

export function insufficientScope(scope: string): GatewayError {
  return new GatewayError("insufficient_scope", {
    detail: `This message needs the scope ${scope}.`,
    challenge: `Bearer realm="${REALM}", error="insufficient_scope", scope="${quoted(scope)}"`,
  });
}
