import { afterAll, beforeAll, expect, test } from "bun:test";
import { gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import type { TestGateway } from "../support/gateway";
import { call, startReceiver, type Receiver } from "../notifications/helpers";
import { pushesOf, textOf } from "./helpers";

/**
 * Issue 19 item 19 (docs/sandbox-controls.md): POST /sandbox/orders/{id}/fly on a paid order,
 * whose travel date is still weeks ahead on the gateway's clock: its flights fly now, and the
 * closing check it runs closes the order once delivered and settled, with OrderClosingNotifRQ
 * pushed to a real subscriber (Standard Webhooks signature and the 24.4 XSD checked by pushesOf,
 * xmllint --nonet).
 */
let t: TestGateway;
let rx: Receiver;
let key: string;
let secret: string;
beforeAll(async () => {
  ({ t } = await gateway());
  key = t.gw.sandbox!.api_key;
  rx = startReceiver();
  const sub = await call(t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["order.closed"] });
  expect(sub.status).toBe(201);
  secret = sub.json.secret;
}, 60_000);
afterAll(async () => {
  rx.stop();
  await t.close();
});

const run = async (job: string) => (await call(t, "POST", "/sandbox/scheduler/run", key, { job })).json.result;
const seller = () => ({ clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id });

async function book(tag: string, leg: "card" | "settlement"): Promise<string> {
  const shopped = await shopOffer(t);
  const legs = [leg === "card" ? { kind: "card" as const, token: "tok_approve_visa", amountMinor: shopped.totalMinor } : { kind: "settlement" as const, method: "CA" as const, amountMinor: shopped.totalMinor }];
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs, seller: t.gw.sandbox!.iata_number, correlationId: `fly-${tag}`, trxId: `trx-${tag}` }));
  expect(r.status).toBe(200);
  return orderIdOf(r.body);
}

test("a paid card order flown by the sandbox closes at once: the fly answer's closing summary counts it, the order reads CLOSED, OrderClosingNotifRQ is pushed once", async () => {
  const orderId = await book("card", "card");
  const r = await call(t, "POST", `/sandbox/orders/${orderId}/fly`, key, {});
  expect(r.status).toBe(200);
  expect(r.json.flown.length).toBeGreaterThan(0);
  expect(r.json["orders.closing"]).toEqual({ closed: 1, waiting: 0 });
  expect(r.json.state).toBe("closed");
  const closed = await t.gw.orders.retrieve(orderId, seller());
  expect([closed.state, closed.version]).toEqual(["closed", r.json.orderVersion]);
  const view = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(view.body).toContain("<cns:StatusCode>CLOSED</cns:StatusCode>");

  while ((await run("notifications.dispatch")).started > 0);
  const pushes = pushesOf(rx, "OrderClosingNotifRQ", secret).filter((b) => textOf(b, "OrderID") === orderId);
  expect(pushes).toHaveLength(1);
  expect(textOf(pushes[0]!, "OwnerCode")).toBe("XB");
  // Flying again records nothing (the same version), closes nothing and pushes nothing more.
  const again = await call(t, "POST", `/sandbox/orders/${orderId}/fly`, key, {});
  expect(again.status).toBe(200);
  expect([again.json.orderVersion, again.json.state]).toEqual([r.json.orderVersion, "closed"]);
  expect(again.json["orders.closing"]).toEqual({ closed: 0, waiting: 0 });
  while ((await run("notifications.dispatch")).started > 0);
  expect(pushesOf(rx, "OrderClosingNotifRQ", secret).filter((b) => textOf(b, "OrderID") === orderId)).toHaveLength(1);
}, 60_000);

test("a settlement-plan order flown waits for its clearance, then the next closing run closes it", async () => {
  const orderId = await book("settled", "settlement");
  const r = await call(t, "POST", `/sandbox/orders/${orderId}/fly`, key, {});
  expect(r.status).toBe(200);
  expect([r.json["orders.closing"], r.json.state]).toEqual([{ closed: 0, waiting: 1 }, "booked"]);
  expect(await t.gw.orders.closability(orderId)).toBe("clearance_open");
  expect(await run("payments.clearance")).toEqual({ cleared: 1 });
  expect(await run("orders.closing")).toEqual({ closed: 1, waiting: 0 });
  expect((await t.gw.orders.retrieve(orderId, seller())).state).toBe("closed");
  while ((await run("notifications.dispatch")).started > 0);
  expect(pushesOf(rx, "OrderClosingNotifRQ", secret).filter((b) => textOf(b, "OrderID") === orderId)).toHaveLength(1);
}, 60_000);
