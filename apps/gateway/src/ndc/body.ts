import { gunzipSync } from "node:zlib";
import { GatewayError } from "@ndc/errors";
import type { XmlLimits } from "@ndc/config";
import { readWithin } from "../http/read-within";

// Stateless when decoding whole buffers (no stream option), so one serves every request.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads the request body within the size limit, then undoes gzip content codings, each layer
 * capped at maxInflatedBytes so a small body that inflates to gigabytes is stopped at the cap
 * (zlib stops writing at maxOutputLength: memory stays bounded).
 */
export async function readBody(request: Request, limits: XmlLimits, gzipAllowed: boolean): Promise<string> {
  const raw = await readWithin(request, limits.maxBodyBytes);
  if (raw === null) throw new GatewayError("payload_too_large", { detail: `The limit is ${limits.maxBodyBytes} bytes.` });
  const header = request.headers.get("content-encoding");
  const codings = (header === null ? [] : header.split(","))
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s && s !== "identity");
  let bytes = raw;
  // Codings are listed in the order they were applied; undo them last to first.
  for (const coding of codings.reverse()) {
    if (coding !== "gzip" || !gzipAllowed) {
      throw new GatewayError("content_encoding_unsupported", { detail: `Content-Encoding "${coding}" is not accepted.` });
    }
    bytes = inflate(bytes, limits.maxInflatedBytes);
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new GatewayError("xml_malformed", { detail: "The body is not valid UTF-8." });
  }
}

function inflate(bytes: Uint8Array, max: number): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: max });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError) {
      throw new GatewayError("payload_too_large", { detail: `The inflated body exceeds ${max} bytes.` });
    }
    throw new GatewayError("content_encoding_invalid");
  }
}
