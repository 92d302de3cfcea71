import { createHash, timingSafeEqual } from "node:crypto";
import { GatewayError } from "@ndc/errors";
import type { GatewayMode } from "@ndc/config";
import { jsonError } from "../routes/json";
import { exposition } from "./exposition";
import type { FigureSources } from "./figures";

/**
 * GET /metrics (docs/operations.md). Local mode: open, like the rest of a developer's gateway.
 * Elsewhere: only `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time; unset,
 * /metrics is not served (404). A seller's access token or API key, or a staff session cookie,
 * is never the credential here: only the operators' own token is looked at.
 */
export async function metricsEndpoint(request: Request, mode: GatewayMode, token: string | undefined, src: FigureSources): Promise<Response> {
  try {
    if (request.method !== "GET" && request.method !== "HEAD") throw new GatewayError("method_not_allowed", { allowedMethods: ["GET", "HEAD"] });
    if (mode !== "local") {
      if (!token) throw new GatewayError("metrics_not_enabled");
      if (!tokenMatches(request.headers.get("authorization"), token)) throw new GatewayError("metrics_token_invalid", { challenge: 'Bearer realm="metrics"' });
    }
    const text = await exposition(src);
    return new Response(request.method === "HEAD" ? null : text, { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" } });
  } catch (e) {
    if (e instanceof GatewayError) return jsonError(e);
    throw e;
  }
}

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Bearer <token>, compared as SHA-256 digests (equal lengths) in constant time: no timing says how much of a guess was right. */
function tokenMatches(authorization: string | null, token: string): boolean {
  const m = authorization === null ? null : /^Bearer +(\S+) *$/i.exec(authorization);
  const given = m ? m[1]! : "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}
