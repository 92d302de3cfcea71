import type { WebhookAnswer, WebhookRequest } from "@ndc/notifications";

/** Retry-After in seconds or as an HTTP date (RFC 9110 10.2.3), in milliseconds from now. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const v = header.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * One push to a seller's endpoint (issue 10): the 24.4 message with IATA-Message-Name and the
 * Standard Webhooks headers. A redirect is never followed: it could lead to an address the
 * dispatcher's checks refuse. The answer's body (an IATA_Acknowledgement is allowed) is read
 * and dropped, so the connection can be reused; past req.maxAnswerBytes the connection is dropped
 * instead (a receiver's 1.5 GiB answer once took the gateway from 128 MB to 2 GB).
 */
export async function postWebhook(req: WebhookRequest): Promise<WebhookAnswer> {
  const drop = new AbortController();
  try {
    const res = await fetch(req.url, {
      method: "POST",
      headers: {
        "content-type": "application/xml",
        "iata-message-name": `IATA_${req.messageName}`,
        // Spec 1, as on every answer; the body says it too (AugmentationPoint or EchoTokenText).
        "x-simulated-supply": "true",
        "webhook-id": req.webhookId,
        "webhook-timestamp": String(req.timestamp),
        "webhook-signature": req.signature,
      },
      body: req.body,
      redirect: "manual",
      signal: AbortSignal.any([AbortSignal.timeout(req.timeoutMs), drop.signal]),
    });
    await discardAnswer(res, req.maxAnswerBytes, drop);
    return { kind: "answered", status: res.status, retryAfterMs: retryAfterMs(res.headers.get("retry-after")) };
  } catch (e) {
    return e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError") ? { kind: "timeout" } : { kind: "connection_failed" };
  }
}

/**
 * Reads the answer's body and throws it away, at most `max` bytes: beyond that the reader is
 * cancelled and the request aborted, which closes the connection rather than draining it. A body
 * that fails or times out after the status line does not change the answer: the status is what counts.
 */
async function discardAnswer(res: Response, max: number, drop: AbortController): Promise<void> {
  const reader = res.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
      if (read > max) break;
    }
  } catch {
    return;
  }
  drop.abort();
  await reader.cancel().catch(() => undefined);
}
