/**
 * Reads a request body while counting, and stops at `max` bytes without reading the rest: a
 * declared Content-Length past it is refused before a byte is read, a streamed body as soon as
 * it passes it. Bun's own body cap is set out of reach (serve.ts), so each route that reads a
 * body caps it here and answers its own documented refusal. Null: the body is too large.
 */
export async function readWithin(request: Request, max: number): Promise<Uint8Array | null> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) return null;
  // A declared length within the cap: read it in one native call instead of chunk by chunk
  // through a stream reader (docs/decisions/0008-per-call-floor.md), without even asking for
  // request.body, which builds a ReadableStream. The HTTP framing ends the body at Content-Length
  // (chunked framing, which has none, takes the counting path below), and the length is checked
  // again for Requests built in process, whose headers nobody framed.
  if (declared !== null && request.headers.get("transfer-encoding") === null) {
    const bytes = await request.bytes();
    return bytes.byteLength > max ? null : bytes;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}
