import type { GatewayMode } from "@ndc/config";

/**
 * The console's session cookie (issue 12 item 1): HttpOnly (no script reads it), SameSite=Strict
 * (no other site's page sends it), Path=/staff (never sent to the NDC endpoints at all), Secure
 * outside local mode (local mode is plain http on the operator's own machine). Max-Age is the
 * absolute 12 hours; the idle 30 minutes are the store's to enforce.
 */
export const SESSION_COOKIE = "ndc_staff";

export function sessionCookie(token: string, mode: GatewayMode, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/staff; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${mode === "local" ? "" : "; Secure"}`;
}

export function clearedCookie(mode: GatewayMode): string {
  return sessionCookie("", mode, 0);
}

/** The session token the request carries, or "" (at most the first cookie of the name counts). */
export function sessionToken(request: Request): string {
  const header = request.headers.get("cookie");
  if (!header || header.length > 8192) return "";
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === SESSION_COOKIE) return part.slice(i + 1).trim();
  }
  return "";
}
