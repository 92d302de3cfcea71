import { failureSource, type AuthService, type FailureBudget, type RateLimiter } from "@ndc/auth";
import { factHeaders, statusOf } from "../http/error-mapping";
import { readWithin } from "../http/read-within";

const MAX_TOKEN_BODY = 8 * 1024;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  // RFC 6749 5.1: token responses are never cached.
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache", ...headers },
  });
}

/** POST /oauth/token (spec 4.2, RFC 6749 4.4 and 5). */
export async function tokenEndpoint(request: Request, auth: AuthService, limiter: RateLimiter, failureBudget: FailureBudget, remote?: string): Promise<Response> {
  if (request.method !== "POST") {
    return json(405, { error: "invalid_request", error_description: "The token endpoint takes POST." }, { allow: "POST" });
  }
  const buf = await readWithin(request, MAX_TOKEN_BODY);
  if (!buf) return json(413, { error: "invalid_request", error_description: "The token request body is too large." });
  const body = new TextDecoder().decode(buf);
  // Failed client authentications per source address: random client_ids each get a fresh
  // per-client bucket, so this is what bounds the argon2id verifies one source can cause. A unit
  // is reserved before the verify (concurrent requests cannot all slip through) and given back
  // unless the client failed to authenticate. A spent source is refused for every client_id,
  // valid or not: telling them apart would take the very verify being limited. Counted in the
  // store: one budget for every gateway process of the data directory.
  const source = failureSource(remote);
  const failures = await failureBudget.take(source);
  if (!failures.ok) {
    return json(
      statusOf("rate_limited"),
      { error: "rate_limited", error_description: "Too many failed token requests from this address." },
      { ...factHeaders({ retryAfterSeconds: failures.retryAfterSeconds }), "x-error-code": "rate_limited" },
    );
  }
  const rateKey = `token:${clientHint(request, body) ?? remote ?? "anonymous"}`;
  const d = limiter.take(rateKey, "token");
  if (!d.ok) {
    await failureBudget.give(source);
    return json(
      statusOf("rate_limited"),
      { error: "rate_limited", error_description: "Too many token requests." },
      { ...factHeaders({ retryAfterSeconds: d.retryAfterSeconds }), "x-error-code": "rate_limited" },
    );
  }
  const result = await auth.issueToken({
    authorization: request.headers.get("authorization"),
    contentType: request.headers.get("content-type"),
    body,
    remoteAddress: remote,
  });
  if (result.ok || result.error.error !== "invalid_client") await failureBudget.give(source);
  // x-authenticated-client and x-error-code feed the request log line and are removed before sending.
  if (result.ok) return json(200, result.token, { "x-authenticated-client": result.clientId });
  const { error, error_description, challenge } = result.error;
  return json(statusOf(error), { error, error_description }, { ...factHeaders({ challenge }), "x-error-code": error });
}

/** The client id the caller claims, only to pick its rate bucket (authentication happens later). */
function clientHint(request: Request, body: string): string | undefined {
  const h = request.headers.get("authorization");
  if (h?.toLowerCase().startsWith("basic ")) {
    try {
      const dec = atob(h.slice(6).trim());
      const i = dec.indexOf(":");
      if (i > 0) return decodeURIComponent(dec.slice(0, i)).slice(0, 64);
    } catch {
      return undefined;
    }
  }
  const id = new URLSearchParams(body).get("client_id");
  return id ? id.slice(0, 64) : undefined;
}
