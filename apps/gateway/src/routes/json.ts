import { GatewayError, CATALOGUE } from "@ndc/errors";
import { factHeaders, statusOf } from "../http/error-mapping";
import { readWithin } from "../http/read-within";

const MAX_JSON_BODY = 16 * 1024;

/** A JSON answer of the management endpoints; never cached. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}

/** A refusal as JSON: the catalogue's status and text, the detail, the facts as headers. */
export function jsonError(e: GatewayError): Response {
  return json(statusOf(e.code), { error: e.code, error_description: e.description, ...(e.element ? { element: e.element } : {}) }, { ...factHeaders(e), "x-error-code": e.code });
}

/** The JSON object of a request body, or request_invalid. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const buf = await readWithin(request, MAX_JSON_BODY);
  if (!buf) throw new GatewayError("payload_too_large");
  if (buf.byteLength === 0) return {};
  try {
    const v = JSON.parse(new TextDecoder().decode(buf));
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new GatewayError("request_invalid", { detail: "The body must be a JSON object." });
}

export const notFound = () => json(404, { error: "not_found" });
export const isKnownCode = (code: string) => Object.hasOwn(CATALOGUE, code);
