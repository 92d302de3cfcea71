import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A new subscription secret in the Standard Webhooks form: whsec_ + base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.replace(/^whsec_/, ""), "base64");
}

/** Standard Webhooks: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"> under the secret's bytes. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** What a receiver does (and the tests): true when one of the space-separated signatures matches. */
export function verifyWebhook(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const expected = Buffer.from(signWebhook(secret, headers.id, Number(headers.timestamp), body));
  return headers.signature.split(" ").some((s) => {
    const got = Buffer.from(s);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
