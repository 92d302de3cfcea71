import { failureSource } from "@ndc/auth";
import { GatewayError } from "@ndc/errors";
import { csrfMatches, liveSession, may, recordAudit, type AuditAction, type StaffRight, type StaffSession } from "@ndc/staff";
import { arrivedUrl, remoteAddress } from "../edge";
import { sessionToken } from "./cookie";
import type { StaffDeps } from "./deps";

/** A staff request's caller: the live session and where the request came from. */
export interface StaffCaller {
  session: StaffSession;
  remote: string;
}

/** The request's source as the audit names it: the socket's address, "unknown" in process. */
export const remoteOf = (request: Request) => remoteAddress(request) ?? "unknown";

/** The rate-limit bucket of a source's failed logins (IPv6 by its /64, as the token endpoint counts). */
export const loginSource = (request: Request) => `staff-login:${failureSource(remoteAddress(request))}`;

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Step one of every /staff/ call but the login: the session cookie, and for a state-changing
 * method the session's CSRF token (the X-CSRF-Token header, or the pages' csrf_token form field).
 * Only the cookie is read: an Authorization header or API key (a seller's credentials) opens
 * nothing here.
 */
export async function staffCaller(request: Request, deps: StaffDeps, csrfField?: string | null): Promise<StaffCaller> {
  const session = await liveSession(deps.store, sessionToken(request), deps.securityClock.now());
  if (!session) throw new GatewayError("staff_session_required");
  if (STATE_CHANGING.has(request.method) && !csrfMatches(session, request.headers.get("x-csrf-token") ?? csrfField))
    throw new GatewayError("staff_csrf_invalid");
  return { session, remote: remoteOf(request) };
}

/**
 * The caller's role must hold `right`; a refusal is audited (`action`, outcome refused, naming the
 * order and document asked for) before staff_forbidden is answered, so a forged request leaves a trace.
 */
export async function requireRight(deps: StaffDeps, caller: StaffCaller, right: StaffRight, audit: { action: AuditAction; orderId?: string; documentRef?: string }): Promise<void> {
  if (may(caller.session.role, right)) return;
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), ...audit, outcome: "refused", detail: `role ${caller.session.role} lacks ${right}` });
  throw new GatewayError("staff_forbidden", { detail: `Needs one of the roles allowed ${right}.` });
}

/** The audit's who and from where. */
export const who = (c: StaffCaller) => ({ staffId: c.session.staffId, username: c.session.username, role: c.session.role, remote: c.remote });

/**
 * A state-changing request must come from this console: its Origin (or Referer), when a browser
 * sends one, names the host the request arrived at (the URL as the socket saw it: the edge may
 * rewrite it for routing). Scripts send neither and are judged by their session and CSRF token;
 * this stops a page on another site posting a login (the one call with no session to check).
 */
export function sameOrigin(request: Request): boolean {
  const from = request.headers.get("origin") ?? request.headers.get("referer");
  if (!from) return true;
  try {
    return new URL(from).host === new URL(arrivedUrl(request)).host;
  } catch {
    return false;
  }
}
