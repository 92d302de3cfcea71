import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Store } from "@ndc/store";
import type { OAuthErrorCode, OAuthErrorResult, TokenRequest, TokenResponse } from "../types";
import { DECOY_HASH, verifySecret } from "../secrets";
import { scopeSet, scopeString } from "../registry/scopes";
import { loadCaller, refusal, type CallerRow } from "../access/lookup";
import { basicChallenge } from "../access/challenge";
import { readCredentials, readForm, type Form } from "./credentials";
import { signToken, TOKEN_LIFETIME_SECONDS } from "./format";
import type { CurrentSigningKey } from "./current-key";

export interface IssueDeps {
  store: Store;
  config: GatewayConfig;
  clock: Clock;
  /** The stored key as it is now (a key replaced by another process signs here from the next call). */
  signingKey: CurrentSigningKey;
}

type Result = { ok: true; token: TokenResponse; clientId: string } | { ok: false; error: OAuthErrorResult };

function fail(error: OAuthErrorCode, error_description: string, challenge?: string): Result {
  return { ok: false, error: challenge === undefined ? { error, error_description } : { error, error_description, challenge } };
}

/**
 * POST /oauth/token, client_credentials (RFC 6749 4.4), as a short list of steps: read the form,
 * read the credentials, check the grant, authenticate the client, settle the scope, sign.
 */
export async function issueToken(deps: IssueDeps, req: TokenRequest): Promise<Result> {
  const read = readForm(req.contentType, req.body);
  if (!read.ok) return fail("invalid_request", read.description);
  const form = read.form;

  const cred = readCredentials(req.authorization, form);
  // RFC 6749 5.2: a client that tried HTTP Basic gets the Basic challenge with its 401.
  const challenge = cred.via === "form" ? undefined : basicChallenge();
  if (!cred.ok) return fail(cred.kind, cred.description, cred.kind === "invalid_client" ? challenge : undefined);

  const grant = checkGrant(form);
  if (grant) return grant;

  const caller = await authenticateClient(deps, cred.clientId, cred.clientSecret);
  if (typeof caller === "string") return fail("invalid_client", caller, challenge);

  const scope = settleScope(form, caller);
  if (typeof scope !== "string") return scope;

  const iat = Math.floor(deps.clock.now() / 1000);
  const access_token = signToken(
    {
      cid: caller.client.clientId,
      agy: caller.agency.agencyId,
      gen: caller.client.secretGeneration,
      epo: caller.client.tokenEpoch,
      scp: scope,
      iat,
      exp: iat + TOKEN_LIFETIME_SECONDS,
    },
    (await deps.signingKey.current()).key,
  );
  return { ok: true, token: { access_token, token_type: "Bearer", expires_in: TOKEN_LIFETIME_SECONDS, scope }, clientId: caller.client.clientId };
}

function checkGrant(form: Form): Result | undefined {
  const g = form.get("grant_type");
  if (g === undefined || g === "") return fail("invalid_request", "The grant_type parameter is required (client_credentials).");
  if (g !== "client_credentials") return fail("unsupported_grant_type", "Only the client_credentials grant type is supported.");
  return undefined;
}

/** Returns the caller, or the description of why it failed. Unknown ids cost an argon2 verify too. */
async function authenticateClient(deps: IssueDeps, clientId: string, secret: string): Promise<CallerRow | string> {
  const generic = "Client authentication failed: unknown client or wrong secret.";
  const caller = clientId.length <= 128 && secret.length <= 512 ? await loadCaller(deps.store.db, clientId) : undefined;
  const ok = await verifySecret(secret, caller?.client.secretHash ?? DECOY_HASH);
  if (!caller || !ok) return generic;
  // Only a caller holding the right secret learns why it is refused.
  return refusal(caller, deps.config.mode) ?? caller;
}

/** RFC 6749 3.3: a requested scope must be a subset of the granted ones; none requested means all. */
function settleScope(form: Form, caller: CallerRow): string | Result {
  const granted = scopeSet(caller.client.scopes);
  const requested = form.get("scope");
  if (requested === undefined) {
    if (granted.size === 0) return fail("invalid_scope", "The client holds no scopes.");
    return scopeString(granted);
  }
  const names = requested.split(" ");
  if (names.some((s) => s === "")) return fail("invalid_scope", "The scope parameter must be scope names separated by single spaces.");
  const outside = names.filter((s) => !granted.has(s));
  if (outside.length) {
    const shown = outside.filter((s) => /^[a-z:_]{1,40}$/.test(s)).slice(0, 5);
    return fail(
      "invalid_scope",
      shown.length
        ? `These scopes are unknown or not granted to the client: ${shown.join(" ")}.`
        : "The requested scope is unknown or not granted to the client.",
    );
  }
  return scopeString(names);
}
