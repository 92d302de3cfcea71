import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Store } from "@ndc/store";
import type { Principal } from "../types";
import { apiKeyDigest } from "../secrets";
import { TOKEN_CLOCK_SKEW_SECONDS, TOKEN_LIFETIME_SECONDS, type TokenClaims } from "../token/format";
import type { CurrentSigningKey } from "../token/current-key";
import { invalidToken } from "./challenge";
import { refusal, type CallerRow } from "./lookup";
import type { CallerCache } from "./caller-cache";

export interface AuthenticateDeps {
  store: Store;
  config: GatewayConfig;
  clock: Clock;
  /** The signing key and the tokens whose signature was already checked under it (expiry and revocation are checked every call). */
  signingKey: CurrentSigningKey;
  /** The registry rows of callers, re-checked against the store's change counters every call. */
  callers: CallerCache;
}

/** RFC 6750 bearer authentication, or X-API-Key on a local gateway (spec 5.3, 5.8). */
export async function authenticate(
  deps: AuthenticateDeps,
  headers: { authorization: string | null; apiKey: string | null },
): Promise<Principal> {
  if (headers.apiKey !== null) {
    if (headers.authorization !== null) throw invalidToken("Send either Authorization or X-API-Key, not both.");
    return byApiKey(deps, headers.apiKey);
  }
  if (headers.authorization === null) throw invalidToken();
  const m = /^Bearer[ ]+([\x21-\x7E]+)\s*$/i.exec(headers.authorization);
  // Another scheme is "no bearer credentials" (RFC 6750 3.1): the challenge names no error.
  if (!m) throw invalidToken(/^Bearer\b/i.test(headers.authorization) ? "The Authorization header is not Bearer <ACCESS_TOKEN>." : undefined);
  return byToken(deps, m[1]!);
}

async function byToken(deps: AuthenticateDeps, token: string): Promise<Principal> {
  const check = (await deps.signingKey.current()).tokens.verify(token);
  if (!check.ok) {
    throw invalidToken(check.reason === "signature" ? "The access token signature is not valid." : "The access token is malformed.");
  }
  const c = check.claims;
  checkLifetime(c, deps.clock.now());
  const caller = await deps.callers.caller(c.cid);
  if (!caller) throw invalidToken("The access token was revoked.");
  const why = refusal(caller, deps.config.mode);
  if (why) throw invalidToken(why);
  // Spec 5.1: the token states the agency it sells as; the registry still has to agree.
  if (c.agy !== caller.agency.agencyId) throw invalidToken("The access token was issued for another agency; request a new one.");
  if (caller.client.secretGeneration !== c.gen) throw invalidToken("The access token was revoked: the client secret was rotated.");
  if (caller.client.tokenEpoch !== c.epo) throw invalidToken("The access token was revoked; request a new one.");
  // Scopes revoked since issue leave the token at once.
  const scopes = grantedOf(check.asked, caller.granted);
  return principal(deps, caller, scopes, "token", `client:${caller.client.clientId}`);
}

/**
 * A token lives 30 minutes from its issue time whatever its exp says (spec 5.2, 8): a token
 * claiming longer was not made by this gateway's issuer, and one issued in the future would
 * outlive its 30 minutes, so both are refused even with a valid signature.
 */
function checkLifetime(c: TokenClaims, nowMs: number): void {
  if (c.exp - c.iat > TOKEN_LIFETIME_SECONDS || c.exp <= c.iat) {
    throw invalidToken("The access token claims a lifetime other than 30 minutes; request a new one.");
  }
  if (c.iat * 1000 > nowMs + TOKEN_CLOCK_SKEW_SECONDS * 1000) throw invalidToken("The access token is issued in the future.");
  if (nowMs >= c.exp * 1000) throw invalidToken("The access token has expired; request a new one.");
}

async function byApiKey(deps: AuthenticateDeps, key: string): Promise<Principal> {
  if (deps.config.mode !== "local") {
    throw invalidToken("API keys (X-API-Key) are accepted by a local gateway only; use an OAuth 2.0 bearer token.");
  }
  const row = key.length > 0 && key.length <= 256 ? await deps.callers.apiKey(apiKeyDigest(key)) : undefined;
  if (!row || row.revoked) throw invalidToken("The API key is not valid.");
  const caller = await deps.callers.caller(row.clientId);
  if (!caller) throw invalidToken("The API key is not valid.");
  const why = refusal(caller, deps.config.mode);
  if (why) throw invalidToken(why);
  return principal(deps, caller, caller.granted, "api_key", `api_key:${row.keyId}`);
}

async function principal(
  deps: AuthenticateDeps,
  caller: CallerRow,
  scopes: ReadonlySet<string>,
  credential: Principal["credential"],
  rateKey: string,
): Promise<Principal> {
  const aggregatorAgencies = scopes.has("ndc:aggregator") ? await deps.callers.aggregatorAgencies(caller.client.clientId) : [];
  return { clientId: caller.client.clientId, agency: caller.agency, scopes, aggregatorAgencies, credential, rateKey };
}

/**
 * The token's scopes that the client still holds: scopes revoked since issue leave the token at
 * once. When the client holds all of them (the usual case) the stored set itself is the answer.
 * Both inputs are cached objects (the verified token's scopes, the cached caller's set), so the
 * answer is remembered per pair: a new registry read brings a new set and a fresh answer.
 */
const grantedMemo = new WeakMap<readonly string[], { granted: ReadonlySet<string>; scopes: ReadonlySet<string> }>();

function grantedOf(asked: readonly string[], granted: ReadonlySet<string>): ReadonlySet<string> {
  const memo = grantedMemo.get(asked);
  if (memo?.granted === granted) return memo.scopes;
  const scopes = asked.length === granted.size && asked.every((s) => granted.has(s)) ? granted : new Set(asked.filter((s) => granted.has(s)));
  grantedMemo.set(asked, { granted, scopes });
  return scopes;
}
