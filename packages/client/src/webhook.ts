import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks (v1) verification of a pushed notification: `webhook-signature` holds one or
 * more `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the
 * bytes of the subscription secret (base64 after `whsec_`). A timestamp further than
 * `toleranceSeconds` from this machine's clock is refused, so a captured push cannot be replayed
 * later; receivers should also drop a `webhook-id` they have already processed.
 */
export interface WebhookHeaders {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
}

export interface WebhookCheck {
  ok: boolean;
  reason?: string;
}

export function webhookHeaders(h: Headers): WebhookHeaders {
  return { id: h.get("webhook-id"), timestamp: h.get("webhook-timestamp"), signature: h.get("webhook-signature") };
}

export function verifyWebhook(secret: string, headers: WebhookHeaders, body: string, o: { now?: number; toleranceSeconds?: number } = {}): WebhookCheck {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, reason: "webhook-id, webhook-timestamp and webhook-signature are all required" };
  if (!/^\d+$/.test(timestamp)) return { ok: false, reason: "webhook-timestamp is not Unix seconds" };
  const skew = Math.abs((o.now ?? Date.now()) / 1000 - Number(timestamp));
  if (skew > (o.toleranceSeconds ?? 300)) return { ok: false, reason: `webhook-timestamp is ${Math.round(skew)} s from this machine's clock` };
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = Buffer.from(createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64"));
  const match = signature.split(" ").some((s) => {
    const [version, mac] = s.split(",", 2);
    if (version !== "v1" || !mac) return false;
    const got = Buffer.from(mac);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
  return match ? { ok: true } : { ok: false, reason: "no v1 signature matches the secret" };
}
