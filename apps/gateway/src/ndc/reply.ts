import { gzipSync } from "node:zlib";

/** Headers every NDC answer carries: the simulated-supply flag also travels as a header. */
export function xmlHeaders(simulated: boolean): Record<string, string> {
  const h: Record<string, string> = { "content-type": "application/xml; charset=utf-8", "cache-control": "no-store" };
  if (simulated) h["x-simulated-supply"] = "true";
  return h;
}

function acceptsGzip(request: Request): boolean {
  const ae = request.headers.get("accept-encoding");
  if (!ae) return false;
  return ae.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * Builds the HTTP response, gzip-encoded when the caller accepts it. `headers` is the answer's
 * own fresh object: Vary (and Content-Encoding) are added to it and the Response is built from it
 * directly, with no Headers object in between (one allocation fewer on every call). The body is
 * text, or bytes already encoded (a Response written straight to bytes: sent as they are).
 */
export function reply(request: Request, status: number, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>): Response {
  headers.vary = "Accept-Encoding";
  if (acceptsGzip(request)) {
    headers["content-encoding"] = "gzip";
    return new Response(gzipSync(body, { level: 4 }), { status, headers });
  }
  return new Response(body, { status, headers });
}
