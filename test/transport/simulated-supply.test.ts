import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verifyWebhook } from "@ndc/notifications";
import { assertSchemaValid } from "../support/xsd";
import { ndcRequest } from "../support/requests";
import { book, start, type Ctx } from "../orders-http/order-list-helpers";
import { startListeningGateway, type ListeningGateway } from "../client/support";
import { call, startReceiver, type Receiver } from "../notifications/helpers";

/**
 * Issue 19 item 20 (spec 1: every response says the supply is simulated): every HTTP answer of the
 * gateway, JSON, HTML and refusals included, carries `X-Simulated-Supply: true`, in process and
 * over a real socket (the edge); every push carries the header and the XML flag the answers carry.
 */
let c: Ctx;
let key: string;
let rx: Receiver;
let listening: ListeningGateway;
beforeAll(async () => {
  c = await start();
  key = c.t.gw.sandbox!.api_key;
  rx = startReceiver();
  listening = await startListeningGateway();
});
afterAll(async () => {
  rx.stop();
  await c.t.close();
  await listening.close();
});

/** One request of every kind the gateway answers, with the status it gets (the sandbox seller's credentials). */
function requests(apiKey: string, clientId: string, secret: string): [string, string, RequestInit, number][] {
  const basic = `Basic ${btoa(`${clientId}:${secret}`)}`;
  const form = { "content-type": "application/x-www-form-urlencoded" };
  return [
    ["health live", "/health/live", {}, 200],
    ["health ready", "/health/ready", {}, 200],
    ["discovery", "/24.4", {}, 200],
    ["token", "/oauth/token", { method: "POST", headers: { ...form, authorization: basic }, body: "grant_type=client_credentials" }, 200],
    ["token refused", "/oauth/token", { method: "POST", headers: { ...form, authorization: `Basic ${btoa(`${clientId}:wrong`)}` }, body: "grant_type=client_credentials" }, 401],
    ["subscriptions", "/notifications/subscriptions", { headers: { "x-api-key": apiKey } }, 200],
    ["sandbox controls", "/sandbox/clock", { method: "POST", headers: { "x-api-key": apiKey, "content-type": "application/json" }, body: JSON.stringify({ advanceSeconds: 1 }) }, 200],
    ["staff API refusal", "/staff/api/session", {}, 401],
    ["staff console page", "/staff/login", {}, 200],
    ["metrics", "/metrics", {}, 200],
    ["unknown path", "/nothing-here", {}, 404],
    ["NDC message", "/24.4/AirShoppingRQ", { method: "POST", headers: { "x-api-key": apiKey, "content-type": "application/xml", "iata-message-name": "IATA_AirShoppingRQ" }, body: ndcRequest("AirShoppingRQ") }, 400],
  ];
}

describe("every HTTP answer", () => {
  test("in process: JSON, HTML and refusals carry X-Simulated-Supply: true", async () => {
    const sb = c.t.gw.sandbox!;
    const seen: string[] = [];
    for (const [name, path, init, status] of requests(key, sb.client_id, sb.client_secret)) {
      const res = await c.t.fetch(path, init);
      await res.arrayBuffer();
      seen.push(`${name} ${res.status} ${res.headers.get("x-simulated-supply")}`);
      expect(`${name} ${res.status}`).toBe(`${name} ${status}`);
    }
    expect(seen.filter((s) => !s.endsWith(" true"))).toEqual([]);
  });

  test("over a real socket (the edge's direct NDC path included)", async () => {
    const sb = listening.gw.sandbox!;
    const seen: string[] = [];
    for (const [name, path, init, status] of requests(sb.api_key, sb.client_id, sb.client_secret)) {
      const res = await fetch(`${listening.url}${path}`, init);
      await res.arrayBuffer();
      expect(`${name} ${res.status}`).toBe(`${name} ${status}`);
      seen.push(`${name} ${res.headers.get("x-simulated-supply")}`);
    }
    expect(seen.filter((s) => !s.endsWith(" true"))).toEqual([]);
  });
});

test("a push carries the header, and the flag in its root's AugmentationPoint, valid against its XSD and covered by the webhook signature", async () => {
  const sub = await call(c.t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["order.payment_expired"] });
  expect(sub.status).toBe(201);
  const order = await book(c, { tag: "SIM1" });
  const past = await call(c.t, "POST", "/sandbox/clock", key, { advanceSeconds: Math.ceil((order.paymentTimeLimit! - c.clock.now()) / 1000) + 1 });
  expect(past.json.jobs["orders.expire-unpaid"]).toEqual({ cancelled: 1 });
  expect(rx.requests).toHaveLength(1);
  const push = rx.requests[0]!;
  expect(push.headers.get("x-simulated-supply")).toBe("true");
  expect(push.body).toContain(
    '<IATA_OrderChangeNotifRQ xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage" xmlns:cns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes"><AugmentationPoint><gw:SimulatedSupply xmlns:gw="urn:x-ndc-gateway:simulation:1" simulated="true">Inventory, payment, settlement and operations are simulated.</gw:SimulatedSupply></AugmentationPoint>',
  );
  expect(push.body.match(/SimulatedSupply xmlns/g)).toHaveLength(1);
  assertSchemaValid(push.body);
  const h = { id: push.headers.get("webhook-id")!, timestamp: push.headers.get("webhook-timestamp")!, signature: push.headers.get("webhook-signature")! };
  expect(verifyWebhook(sub.json.secret, h, push.body)).toBe(true);
});
