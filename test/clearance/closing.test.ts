import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { ndcRequest } from "../support/requests";
import { gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer, TRAVEL_DATE } from "../orders-http/helpers";
import type { TestGateway } from "../support/gateway";
import { call, startReceiver, type Receiver } from "../notifications/helpers";
import { pushesOf, textOf } from "./helpers";
import { orderHistoryRQ } from "../orders-http/order-list-helpers";
import { refuseInserts } from "../support/triggers";

/**
 * Issue 10, the closing check (spec 3): a booked order whose every service is delivered (the
 * state ServiceDeliveryRQ answers) and whose money is settled (payments captured, clearances
 * cleared) moves to Closed through its actor, and OrderClosingNotifRQ (`order.closed`) commits
 * with the move. Run by name, as the scheduler and the sandbox controls run it.
 */
let t: TestGateway;
let clock: ManualClock;
let rx: Receiver;
let key: string;
let secret: string;
beforeAll(async () => {
  ({ t, clock } = await gateway());
  key = t.gw.sandbox!.api_key;
  rx = startReceiver();
  const sub = await call(t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["order.closed"] });
  secret = sub.json.secret;
});
afterAll(async () => {
  rx.stop();
  await t.close();
});

const run = async (job: string) => (await call(t, "POST", "/sandbox/scheduler/run", key, { job })).json.result;

async function book(tag: string, legs: "settlement" | "card"): Promise<string> {
  const shopped = await shopOffer(t);
  const leg = legs === "settlement" ? { kind: "settlement" as const, method: "CA" as const, amountMinor: shopped.totalMinor } : { kind: "card" as const, token: "tok_approve_visa", amountMinor: shopped.totalMinor };
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [leg], seller: t.gw.sandbox!.iata_number, correlationId: `close-${tag}`, trxId: `trx-${tag}` }));
  if (r.status !== 200) throw new Error(r.body);
  return orderIdOf(r.body);
}

const deliveryCodes = async (orderId: string) => {
  const r = await t.ndc("ServiceDeliveryRQ", ndcRequest("ServiceDeliveryRQ", { request: `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>` }));
  expect(r.status).toBe(200);
  return [...r.body.matchAll(/<cns:DeliveryStatusCode>([^<]+)</g)].map((m) => m[1]);
};
const state = async (orderId: string) => (await t.gw.orders.retrieve(orderId, { clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id })).state;

test("delivered and settled: Closed through the actor, OrderClosingNotifRQ pushed once; not before the flight flies, not before the clearance clears", async () => {
  const settled = await book("S", "settlement");
  const paidByCard = await book("C", "card");
  // Nothing has flown: the check closes nothing.
  expect(await run("orders.closing")).toEqual({ closed: 0, waiting: 0 });
  expect(await t.gw.orders.closability(settled)).toBe("service_not_delivered");

  // The flights fly (the day after TRAVEL_DATE): every service delivered, as ServiceDeliveryRQ says.
  clock.advance(Date.parse(`${TRAVEL_DATE}T00:00:00Z`) + 86_400_000 * 2 - clock.now());
  expect(new Set(await deliveryCodes(settled))).toEqual(new Set(["DELIVERED"]));
  // The delivery sweep records the flights flown (the closing check waits for that record, and
  // would make it itself: test/notifications/operations*.test.ts).
  await run("delivery.flown");
  // The card order is settled and closes; the settlement order waits for its clearance.
  expect(await t.gw.orders.closability(settled)).toBe("clearance_open");
  expect(await run("orders.closing")).toEqual({ closed: 1, waiting: 1 });
  expect(await state(paidByCard)).toBe("closed");
  expect(await state(settled)).toBe("booked");

  expect(await run("payments.clearance")).toEqual({ cleared: 1 });
  expect(await run("orders.closing")).toEqual({ closed: 1, waiting: 0 });
  expect(await state(settled)).toBe("closed");
  // Closed orders are not looked at again.
  expect(await run("orders.closing")).toEqual({ closed: 0, waiting: 0 });

  await run("notifications.dispatch");
  const pushes = pushesOf(rx, "OrderClosingNotifRQ", secret);
  expect(pushes.map((b) => textOf(b, "OrderID")).sort()).toEqual([paidByCard, settled].sort());
  for (const b of pushes) {
    expect(textOf(b, "OwnerCode")).toBe("XB");
    expect(b).not.toMatch(/TRAVELLER|IdentityDoc/);
  }
  // The order says so: OrderViewRS and OrderHistoryRS, answered after the move.
  const view = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(settled));
  expect(view.body).toContain("CLOSED");
  const history = await t.ndc("OrderHistoryRQ", orderHistoryRQ(settled));
  expect(history.status).toBe(200);
  expect(history.body).toContain("ORDER_CLOSED");
  expect(history.body).toContain("SERVICES_DELIVERED_AND_SETTLED");
  const version = (await t.gw.orders.retrieve(settled, { clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id })).version;
  expect(pushes.find((b) => b.includes(settled))).toContain(`<cns:OrderVersionNumber>${version}</cns:OrderVersionNumber>`);
}, 60_000);

test("OrderClosingNotifRQ commits with the move or not at all", async () => {
  const orderId = await book("A", "card");
  expect(await state(orderId)).toBe("booked");
  await run("delivery.flown");
  const allowOutbox = await refuseInserts(t.gw.store, "notification_deliveries");
  try {
    await expect(t.gw.orders.closeSettled()).rejects.toThrow("injected");
  } finally {
    await allowOutbox();
  }
  expect(await state(orderId)).toBe("booked");
  expect(await t.gw.store.db.all(`SELECT state FROM orders WHERE order_id = '${orderId}'`)).toEqual([{ state: "booked" }]);
  expect(await t.gw.store.db.all(`SELECT COUNT(*) AS n FROM notification_deliveries WHERE order_id = '${orderId}'`)).toEqual([{ n: 0 }]);
  expect(await run("orders.closing")).toEqual({ closed: 1, waiting: 0 });
  expect(await t.gw.store.db.all(`SELECT event FROM notification_deliveries WHERE order_id = '${orderId}'`)).toEqual([{ event: "order.closed" }]);
}, 60_000);

test("each run goes on from where the last stopped: an order waiting for its clearance never keeps the next one from closing", async () => {
  const waiting = await book("W", "settlement");
  const ready = await book("R", "card");
  await run("delivery.flown");
  // One order per run: whatever the ids' order, the ready one is closed within two runs, the waiting one stays booked.
  for (let i = 0; i < 2 && (await state(ready)) !== "closed"; i++) await t.gw.orders.closeSettled(undefined, 1);
  expect(await state(ready)).toBe("closed");
  expect(await state(waiting)).toBe("booked");
  expect(await t.gw.orders.closability(waiting)).toBe("clearance_open");
}, 60_000);
