import { GatewayError } from "@ndc/errors";
import { endSession, login, recordAudit, type LoggedIn } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { loginSource, remoteOf, who, type StaffCaller } from "./guard";

/**
 * The login the API and the login page share. A failed attempt spends one unit of the source's
 * failure budget (RATE_LIMIT_TOKEN_FAILURES_PER_MINUTE, the token endpoint's figure under keys of
 * its own); a success gives it back.
 */
export async function logIn(request: Request, deps: StaffDeps, creds: { username: string; password: string; totp: string }): Promise<LoggedIn> {
  const source = loginSource(request);
  const budget = await deps.failures.take(source);
  if (!budget.ok) throw new GatewayError("rate_limited", { detail: "Too many failed logins from this address.", retryAfterSeconds: budget.retryAfterSeconds });
  const session = await login(deps.store, deps.fieldKey, deps.auditChain, { ...creds, remote: remoteOf(request) }, deps.securityClock.now());
  await deps.failures.give(source);
  return session;
}

/** Logout: the session ends in the store (its cookie is refused from now on) and the audit says so. */
export async function logOut(deps: StaffDeps, caller: StaffCaller): Promise<void> {
  await endSession(deps.store, caller.session.sessionHash, deps.securityClock.now());
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.securityClock.now(), action: "staff.logout", outcome: "ok" });
}
