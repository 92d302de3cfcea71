import { createHash } from "node:crypto";

/** JSON with object keys sorted and undefined members dropped: equal requests encode alike. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * SHA-256 (hex) of a request: raw bytes or text are hashed as they are (the body on the wire),
 * anything else as its canonical JSON (a decoded request model).
 */
export function fingerprintOf(body: Uint8Array | string | object): string {
  const h = createHash("sha256");
  if (typeof body === "string" || body instanceof Uint8Array) h.update(body);
  else h.update(canonicalJson(body));
  return h.digest("hex");
}
