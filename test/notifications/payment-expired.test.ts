import { afterAll, beforeAll, expect, test } from "bun:test";
import { verifyWebhook } from "@ndc/notifications";
import { assertSchemaValid } from "../support/xsd";
import { book, start, type Ctx } from "../orders-http/order-list-helpers";
import { call, startReceiver, type Receiver } from "./helpers";
import { refuseInserts } from "../support/triggers";

let c: Ctx;
let rx: Receiver;
let key: string;
beforeAll(async () => {
  c = await start();
  key = c.t.gw.sandbox!.api_key;
  rx = startReceiver();
});
afterAll(async () => {
  rx.stop();
  await c.t.close();
});

const clock = (advanceSeconds: number) => call(c.t, "POST", "/sandbox/clock", key, { advanceSeconds });

test("a held order reaching its time limit is cancelled and pushed once; 500 three times then 200: same webhook-id, 4 attempts", async () => {
  const sub = await call(c.t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["order.payment_expired"] });
  expect(sub.status).toBe(201);
  rx.answer = (n) => new Response("nope", { status: n <= 3 ? 500 : 200 });
  const order = await book(c, { tag: "NX1" });
  expect(order.state).toBe("held_unpaid");

  // One second before the limit: nothing is due.
  const early = await clock(Math.floor((order.paymentTimeLimit! - c.clock.now()) / 1000) - 1);
  expect(early.status).toBe(200);
  expect(early.json.jobs["orders.expire-unpaid"]).toEqual({ cancelled: 0 });
  expect(rx.requests.length).toBe(0);

  const past = await clock(2);
  expect(past.json.jobs["orders.expire-unpaid"]).toEqual({ cancelled: 1 });
  expect(rx.requests.length).toBe(1);
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).state).toBe("cancelled");

  const first = rx.requests[0]!;
  expect(first.path).toBe("/24.4/OrderChangeNotifRQ");
  expect(first.headers.get("iata-message-name")).toBe("IATA_OrderChangeNotifRQ");
  expect(first.headers.get("content-type")).toBe("application/xml");
  const id = first.headers.get("webhook-id")!;
  expect(id).toMatch(/^msg_/);
  expect(Number(first.headers.get("webhook-timestamp"))).toBe(Math.floor(c.clock.now() / 1000));
  expect(first.headers.get("webhook-signature")).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  expect(verifyWebhook(sub.json.secret, { id, timestamp: first.headers.get("webhook-timestamp")!, signature: first.headers.get("webhook-signature")! }, first.body)).toBe(true);
  // A body changed by one byte does not verify.
  expect(verifyWebhook(sub.json.secret, { id, timestamp: first.headers.get("webhook-timestamp")!, signature: first.headers.get("webhook-signature")! }, first.body + " ")).toBe(false);
  assertSchemaValid(first.body);
  expect(first.body).toContain(`<OrderRefID>${order.orderId}</OrderRefID>`);
  expect(first.body).toContain("<ChangeTypeCode>ORDER_CANCELLED</ChangeTypeCode>");
  expect(first.body).toContain("<ReasonCode>PAYMENT_TIME_LIMIT_EXPIRED</ReasonCode>");
  expect(first.body).toContain(`<OrderVersionNumber>${order.version + 1}</OrderVersionNumber>`);
  // The changed order rides along as OrderViewRS shows it (spec 6), cancelled, without identity documents.
  expect(first.body).toMatch(new RegExp(`<CurrentOrder><cns:DataLists>.*<cns:Order>.*<cns:OrderID>${order.orderId}</cns:OrderID>.*<cns:OrderVersionNumber>${order.version + 1}</cns:OrderVersionNumber><cns:OwnerCode>XB</cns:OwnerCode><cns:StatusCode>CANCELLED</cns:StatusCode>.*</CurrentOrder><OrderRefID>`));
  expect(first.body).not.toContain("IdentityDoc");

  // The schedule: about 5 s, then 5 min, then 30 min (each with up to 10 % jitter).
  expect((await clock(4)).json.jobs["notifications.dispatch"]).toEqual({ started: 0, batches: 0 });
  await clock(2);
  expect(rx.requests.length).toBe(2);
  await clock(4 * 60);
  expect(rx.requests.length).toBe(2);
  await clock(2 * 60);
  expect(rx.requests.length).toBe(3);
  await clock(34 * 60);
  expect(rx.requests.length).toBe(4);
  expect(new Set(rx.requests.map((r) => r.headers.get("webhook-id")))).toEqual(new Set([id]));
  expect(new Set(rx.requests.map((r) => r.body)).size).toBe(1);

  const list = await call(c.t, "GET", `/notifications/subscriptions/${sub.json.id}/deliveries`, key);
  expect(list.json.deliveries).toEqual([
    expect.objectContaining({ id, event: "order.payment_expired", messageName: "OrderChangeNotifRQ", orderId: order.orderId, status: "delivered", attempts: 4, nextAttemptAt: null, lastHttpStatus: 200 }),
  ]);
  // Nothing more is sent, however long we wait; a second expiry pass finds nothing.
  await clock(86_400);
  expect(rx.requests.length).toBe(4);

  // Redeliver: the same webhook-id again, signed with the rotated secret.
  const rotated = await call(c.t, "POST", `/notifications/subscriptions/${sub.json.id}/rotate-secret`, key);
  expect(rotated.json.secret).not.toBe(sub.json.secret);
  expect((await call(c.t, "POST", `/notifications/subscriptions/${sub.json.id}/deliveries/${id}/redeliver`, key)).status).toBe(202);
  expect((await call(c.t, "POST", `/notifications/subscriptions/${sub.json.id}/deliveries/msg_nope/redeliver`, key)).json.error).toBe("delivery_not_found");
  await call(c.t, "POST", "/sandbox/scheduler/run", key, { job: "notifications.dispatch" });
  const again = rx.requests.at(-1)!;
  expect(rx.requests.length).toBe(5);
  expect(again.headers.get("webhook-id")).toBe(id);
  const h = { id, timestamp: again.headers.get("webhook-timestamp")!, signature: again.headers.get("webhook-signature")! };
  expect(verifyWebhook(rotated.json.secret, h, again.body)).toBe(true);
  expect(verifyWebhook(sub.json.secret, h, again.body)).toBe(false);
});

test("the notification commits with the cancellation or not at all", async () => {
  const sub = await call(c.t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["order.payment_expired"] });
  rx.answer = () => new Response(null, { status: 204 });
  const order = await book(c, { tag: "NX2" });
  // The outbox insert fails inside the order actor's transaction.
  const allowOutbox = await refuseInserts(c.t.gw.store, "notification_deliveries");
  c.clock.advance(order.paymentTimeLimit! - c.clock.now());
  await expect(c.t.gw.orders.expireUnpaid()).rejects.toThrow("injected");
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).state).toBe("held_unpaid");
  const rows = (await c.t.gw.store.db.all(`SELECT state FROM orders WHERE order_id = '${order.orderId}'`)) as { state: string }[];
  expect(rows).toEqual([{ state: "held_unpaid" }]);
  expect((await call(c.t, "GET", `/notifications/subscriptions/${sub.json.id}/deliveries`, key)).json.deliveries).toEqual([]);

  await allowOutbox();
  const before = rx.requests.length;
  const run = await call(c.t, "POST", "/sandbox/clock", key, { advanceSeconds: 0 });
  expect(run.json.jobs["orders.expire-unpaid"]).toEqual({ cancelled: 1 });
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).state).toBe("cancelled");
  const sent = rx.requests.slice(before);
  // Both subscriptions of the agency get it, each under its own webhook-id.
  expect(sent.length).toBe(2);
  expect(new Set(sent.map((r) => r.headers.get("webhook-id"))).size).toBe(2);
});
