import { afterAll, beforeAll, expect, test } from "bun:test";
import { verifyWebhook } from "@ndc/notifications";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { gateway, ndcAs, orderCreateRQ, orderIdOf, shopOffer } from "../orders-http/helpers";
import { call, sellerWithToken, startReceiver, type Receiver } from "./helpers";
import type { ManualClock } from "@ndc/clock";
import { SANDBOX_AGENCY_ID } from "@ndc/auth";

/**
 * Issue 19 item 23: each seller client has its own sandbox clock (docs/sandbox-controls.md). Two
 * sellers on one local gateway hold an order each; the first moves its clock past the payment
 * time limit: its order lapses and is pushed to it, the second's stays held and nothing is pushed
 * to it, until it moves its own clock. The clocks are in the store: another gateway process on
 * the same database reads the same ones.
 */
const DAY = 86_400;
let t: TestGateway;
let clock: ManualClock;
let a: { key: string; clientId: string; rx: Receiver; secret: string };
let b: { auth: string; clientId: string; rx: Receiver };
const others: TestGateway[] = [];

beforeAll(async () => {
  ({ t, clock } = await gateway());
  const key = t.gw.sandbox!.api_key;
  const other = await sellerWithToken(t, "AGY-CLOCK-B", "12345725", "ndc:shop ndc:order ndc:order:write ndc:payment ndc:notif:subscribe");
  a = { key, clientId: t.gw.sandbox!.client_id, rx: startReceiver(), secret: "" };
  b = { auth: other.token, clientId: other.clientId, rx: startReceiver() };
  const subA = await call(t, "POST", "/notifications/subscriptions", a.key, { url: a.rx.url, events: ["order.payment_expired"] });
  const subB = await call(t, "POST", "/notifications/subscriptions", b.auth, { url: b.rx.url, events: ["order.payment_expired"] });
  expect([subA.status, subB.status]).toEqual([201, 201]);
  a.secret = subA.json.secret;
  // A gateway boot and two sellers registered: on PostgreSQL the boot migrates a fresh database
  // (about a second alone, several on a loaded CI machine), past the default 5 s hook budget.
}, 30_000);
afterAll(async () => {
  a.rx.stop();
  b.rx.stop();
  for (const o of others) await o.gw.close();
  await t.close();
});

/** A held order (no payment) booked over NDC by A (the sandbox API key) or B (its bearer token). */
async function hold(who: "a" | "b", tag: string) {
  const as: Record<string, string> = who === "a" ? { "x-api-key": a.key } : { authorization: b.auth };
  const ndc = (m: string, body: string | Uint8Array) => ndcAs(t, as, m, String(body));
  const shopped = await shopOffer({ ndc });
  const res = await ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: `CLK-${tag}`, trxId: `TRX-${tag}` }));
  expect(res.status).toBe(200);
  const orderId = orderIdOf(res.body);
  const order = await t.gw.orders.retrieve(orderId, who === "a" ? { clientId: a.clientId, agencyId: SANDBOX_AGENCY_ID } : { clientId: b.clientId, agencyId: "AGY-CLOCK-B" });
  expect(order.state).toBe("held_unpaid");
  return { orderId, paymentTimeLimit: order.paymentTimeLimit! };
}
const stateOf = async (orderId: string) => ((await t.gw.store.db.all(`SELECT state FROM orders WHERE order_id = '${orderId}'`)) as { state: string }[])[0]!.state;

test("advancing one seller's clock lapses its held order only, pushes only to it, and leaves the other's clock and orders alone", async () => {
  const heldA = await hold("a", "A1");
  const heldB = await hold("b", "B1");
  // Both held at the same real instant: the same payment time limit.
  expect(heldA.paymentTimeLimit).toBe(heldB.paymentTimeLimit);
  const past = Math.ceil((heldA.paymentTimeLimit - clock.now()) / 1000) + 60;

  const moved = await call(t, "POST", "/sandbox/clock", a.key, { advanceSeconds: past });
  expect(moved.status).toBe(200);
  expect(moved.json).toMatchObject({ now: new Date(clock.now() + past * 1000).toISOString(), offsetSeconds: past });
  expect(moved.json.jobs["orders.expire-unpaid"]).toEqual({ cancelled: 1 });
  expect(await stateOf(heldA.orderId)).toBe("cancelled");
  expect(await stateOf(heldB.orderId)).toBe("held_unpaid");
  // Real time did not move: the injected (security) clock is where it was.
  expect(t.gw.securityClock.now()).toBe(clock.now());

  // A's push, stamped with real time; nothing for B.
  expect(a.rx.requests).toHaveLength(1);
  expect(a.rx.requests[0]!.body).toContain(`<OrderRefID>${heldA.orderId}</OrderRefID>`);
  expect(Number(a.rx.requests[0]!.headers.get("webhook-timestamp"))).toBe(Math.floor(clock.now() / 1000));
  const h = a.rx.requests[0]!.headers;
  expect(verifyWebhook(a.secret, { id: h.get("webhook-id")!, timestamp: h.get("webhook-timestamp")!, signature: h.get("webhook-signature")! }, a.rx.requests[0]!.body)).toBe(true);
  expect(b.rx.requests).toHaveLength(0);

  // Each seller reads its own clock.
  expect((await call(t, "GET", "/sandbox/clock", a.key)).json).toEqual({ now: new Date(clock.now() + past * 1000).toISOString(), offsetSeconds: past });
  expect((await call(t, "GET", "/sandbox/clock", b.auth)).json).toEqual({ now: new Date(clock.now()).toISOString(), offsetSeconds: 0 });

  // What each books now is on its own business time: A's time limit is `past` seconds later than B's.
  const nextA = await hold("a", "A2");
  const nextB = await hold("b", "B2");
  expect(nextA.paymentTimeLimit - nextB.paymentTimeLimit).toBe(past * 1000);

  // The background sweeps judge each order at its owner's time: a pass now cancels nothing more.
  expect(await t.gw.orders.expireUnpaid()).toEqual([]);

  // B moves its own clock: now both its orders (held at the same real instant) lapse, and B is
  // told of each; A's second order, held on A's moved clock, is not due on it yet.
  const movedB = await call(t, "POST", "/sandbox/clock", b.auth, { advanceSeconds: past });
  expect(movedB.json.jobs["orders.expire-unpaid"]).toEqual({ cancelled: 2 });
  expect([await stateOf(heldB.orderId), await stateOf(nextB.orderId), await stateOf(nextA.orderId)]).toEqual(["cancelled", "cancelled", "held_unpaid"]);
  expect(b.rx.requests).toHaveLength(2);
  expect(b.rx.requests.map((r) => r.body.match(/<OrderRefID>([^<]+)</)![1]).sort()).toEqual([heldB.orderId, nextB.orderId].sort());
  expect(a.rx.requests).toHaveLength(1);
}, 60_000);

test("the clocks are kept in the store: a second gateway process on the same database reads them; offsetSeconds puts a clock back", async () => {
  const before = (await call(t, "GET", "/sandbox/clock", a.key)).json.offsetSeconds;
  expect(before).toBeGreaterThan(DAY);
  const second = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", GATEWAY_DATA_DIR: t.dataDir }, clock);
  others.push(second);
  expect((await call(second, "GET", "/sandbox/clock", a.key)).json.offsetSeconds).toBe(before);
  expect((await call(second, "GET", "/sandbox/clock", b.auth)).json.offsetSeconds).toBe(before);
  // Moved by one process, read by the other.
  expect((await call(second, "POST", "/sandbox/clock", a.key, { advanceSeconds: 60 })).json.offsetSeconds).toBe(before + 60);
  expect((await call(t, "GET", "/sandbox/clock", a.key)).json.offsetSeconds).toBe(before + 60);
  // Set outright (seller certify restores the offset it found); a bad value is refused.
  expect((await call(t, "POST", "/sandbox/clock", a.key, { offsetSeconds: 0 })).json.offsetSeconds).toBe(0);
  expect((await call(second, "GET", "/sandbox/clock", a.key)).json).toEqual({ now: new Date(clock.now()).toISOString(), offsetSeconds: 0 });
  for (const body of [{ offsetSeconds: -1 }, { offsetSeconds: 1.5 }]) {
    const bad = await call(t, "POST", "/sandbox/clock", a.key, body);
    expect([bad.status, bad.json.error]).toEqual([400, "request_invalid"]);
  }
  expect((await call(t, "GET", "/sandbox/clock", b.auth)).json.offsetSeconds).toBe(before);
}, 60_000);
