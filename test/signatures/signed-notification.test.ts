import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setSigningPolicy } from "@ndc/auth";
import { verifyWebhook } from "@ndc/notifications";
import { assertSchemaValid } from "../support/xsd";
import { book, start, type Ctx } from "../orders-http/order-list-helpers";
import { call, startReceiver, type Receiver } from "../notifications/helpers";
import { keyDir } from "./support";

/**
 * Issue 11 item 4, pushed notifications: for an agency whose agreement asks, the pushed
 * OrderChangeNotifRQ carries the airline's enveloped signature (xmlsec1 verifies it with the
 * discovery certificate; still XSD-valid), and the webhook-signature covers the signed body.
 */
let c: Ctx;
let rx: Receiver;
let key: string;
beforeAll(async () => {
  c = await start();
  key = c.t.gw.sandbox!.api_key;
  rx = startReceiver();
}, 30_000);
afterAll(async () => {
  rx.stop();
  await c.t.close();
});

test("a pushed OrderChangeNotifRQ is signed by the airline when the agreement asks, and only then", async () => {
  const cert = ((await (await c.t.fetch("/24.4")).json()) as { signatures: { airline: { certificate: string } } }).signatures.airline.certificate;
  const sub = await call(c.t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["order.payment_expired"] });
  expect(sub.status).toBe(201);
  const clock = (advanceSeconds: number) => call(c.t, "POST", "/sandbox/clock", key, { advanceSeconds });

  await setSigningPolicy(c.t.gw.store, c.seller.agencyId, "none", true);
  const signedOrder = await book(c, { tag: "SN1" });
  await clock(Math.ceil((signedOrder.paymentTimeLimit! - c.clock.now()) / 1000) + 1);
  expect(rx.requests.length).toBe(1);
  const push = rx.requests[0]!;
  expect(push.body).toContain("<ds:SignatureValue>");
  assertSchemaValid(push.body);
  expect(verifyWebhook(sub.json.secret, { id: push.headers.get("webhook-id")!, timestamp: push.headers.get("webhook-timestamp")!, signature: push.headers.get("webhook-signature")! }, push.body)).toBe(true);
  const file = join(keyDir, "push.xml");
  const certFile = join(keyDir, "airline-push.pem");
  writeFileSync(file, push.body);
  writeFileSync(certFile, cert);
  const flag = cert.includes("BEGIN CERTIFICATE") ? "--pubkey-cert-pem" : "--pubkey-pem";
  expect(() => execFileSync("xmlsec1", ["--verify", flag, certFile, file], { stdio: "pipe" })).not.toThrow();
  writeFileSync(file, push.body.replace(signedOrder.orderId, "ORDER-FORGED"));
  expect(() => execFileSync("xmlsec1", ["--verify", flag, certFile, file], { stdio: "pipe" })).toThrow();

  await setSigningPolicy(c.t.gw.store, c.seller.agencyId, "none", false);
  const plainOrder = await book(c, { tag: "SN2" });
  await clock(Math.ceil((plainOrder.paymentTimeLimit! - c.clock.now()) / 1000) + 1);
  expect(rx.requests.length).toBe(2);
  expect(rx.requests[1]!.body).not.toContain("SignatureValue");
}, 60_000);
