import { afterAll, beforeAll, expect, test } from "bun:test";
import { party, selectAll, verifyWebhook, webhookHeaders } from "@ndc-gateway/client";
import { assertSchemaValid } from "../support/xsd";
import { sandboxClient, startListeningGateway, travelDate, type ListeningGateway } from "./support";

/**
 * Issue 11 item 6: webhook verification (Standard Webhooks `webhook-signature`) of a push the
 * real gateway sends: a held order expires unpaid (the sandbox clock moved past its payment time
 * limit) and its OrderChangeNotifRQ reaches a receiver on this machine.
 */
let g: ListeningGateway;
beforeAll(async () => {
  g = await startListeningGateway();
});
afterAll(async () => {
  await g.close();
});

test("a pushed OrderChangeNotifRQ verifies with the subscription secret; a changed body, another secret or an old timestamp do not", async () => {
  const pushes: { headers: Headers; body: string }[] = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      pushes.push({ headers: req.headers, body: await req.text() });
      return new Response(null, { status: 204 });
    },
  });
  try {
    const c = sandboxClient(g);
    const sub = await c.subscribe(`http://127.0.0.1:${receiver.port}`, ["order.payment_expired"]);
    expect(sub.secret).toMatch(/^whsec_/);
    const shop = await c.shop({ origin: "LHR", destination: "CDG", date: travelDate(), passengers: party({ adults: 1 }) });
    const held = await c.create({ offers: [selectAll(shop.offers[0]!)], passengers: [{ paxId: "PAX1", ptc: "ADT", givenName: "Ada", surname: "LOVELACE", title: "MS" }] });
    const advanceSeconds = Math.ceil((Date.parse(held.paymentTimeLimit!) - Date.now()) / 1000) + 60;
    const moved = await c.json("POST", "/sandbox/clock", { advanceSeconds });
    expect(moved.status).toBe(200);
    expect(pushes).toHaveLength(1);
    const push = pushes[0]!;
    assertSchemaValid(push.body, "IATA_OrderChangeNotifRQ.xsd");
    expect(push.body).toContain(held.orderId);
    // The push carries real time in webhook-timestamp, not the moved sandbox clock (issue 19 item 22).
    expect(Math.abs(Number(push.headers.get("webhook-timestamp")) * 1000 - Date.now())).toBeLessThan(10_000);
    const now = Date.now();
    const h = webhookHeaders(push.headers);
    expect(verifyWebhook(sub.secret, h, push.body, { now })).toEqual({ ok: true });
    expect(verifyWebhook(sub.secret, h, push.body.replace(held.orderId, "ORD-000000000000"), { now }).ok).toBe(false);
    expect(verifyWebhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, h, push.body, { now }).ok).toBe(false);
    expect(verifyWebhook(sub.secret, h, push.body, { now: now + 600_000 })).toMatchObject({ ok: false, reason: expect.stringContaining("clock") });
    expect(verifyWebhook(sub.secret, { ...h, signature: null }, push.body, { now }).ok).toBe(false);
  } finally {
    receiver.stop(true);
  }
}, 60_000);
