import { afterAll, beforeAll, expect, test } from "bun:test";
import { revokeScopes } from "@ndc/auth";
import type { ManualClock } from "@ndc/clock";
import { verifyWebhook } from "@ndc/notifications";
import { countWrites } from "../support/count-writes";
import type { TestGateway } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { DOC_NUMBER, gateway, orderCreateRQ, orderIdOf, shopOffer } from "../orders-http/helpers";
import { all, blocks, paymentRetryRQ } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor } from "../servicing/add-helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "../servicing/flight-change-helpers";
import { multiOrderCreateRQ, quotedList, seatItem, serviceItems, shopOneWay, total } from "../orders-http/multi-offer-helpers";
import { acceptCancelRQ, bookCancellable, quote, sellerOf } from "../servicing/cancel-helpers";
import { call, otherSellerToken, sellerWithToken, startReceiver, type Receiver } from "./helpers";
import { dayAfter, T0 } from "../support/dates";
import { refuseInserts } from "../support/triggers";

/**
 * accounting.sales_info (spec 6): every sale, change, refund and void of every order, pushed as
 * IATA_OrderSalesInformationNotifRQ to the airline's accounting subscription (another agency's
 * client holding ndc:accounting), from real flows over HTTP, to a real receiver on a free port;
 * each push XSD-checked and its signature verified. The grant is checked at delivery too.
 */
let t: TestGateway;
let clock: ManualClock;
let rx: Receiver;
let accounting: string;
let accountingClient: string;
let secret: string;
let subId: string;
beforeAll(async () => {
  rx = startReceiver();
  ({ t, clock } = await gateway());
  ({ token: accounting, clientId: accountingClient } = await sellerWithToken(t, "AGY-ACCT", "99999992", "ndc:notif:subscribe ndc:accounting"));
  const sub = await call(t, "POST", "/notifications/subscriptions", accounting, { url: rx.url, events: ["accounting.sales_info"] });
  expect(sub.status).toBe(201);
  secret = sub.json.secret;
  subId = sub.json.id;
});
afterAll(async () => {
  rx.stop();
  await t.close();
});

/** Sends what is due and returns the pushes received since `from` (about `orderId` only, when named), each checked: path, headers, signature, XSD, no personal data. */
async function pushedSince(from: number, orderId?: string): Promise<string[]> {
  await t.gw.notifications.dispatcher.tick();
  const pushes = rx.requests.slice(from).filter((r) => orderId === undefined || r.body.includes(`<cns:OrderID>${orderId}</cns:OrderID>`));
  return pushes.map((r) => {
    expect(r.path).toBe("/24.4/OrderSalesInformationNotifRQ");
    expect(r.headers.get("iata-message-name")).toBe("IATA_OrderSalesInformationNotifRQ");
    expect(r.headers.get("content-type")).toBe("application/xml");
    const h = { id: r.headers.get("webhook-id")!, timestamp: r.headers.get("webhook-timestamp")!, signature: r.headers.get("webhook-signature")! };
    expect(verifyWebhook(secret, h, r.body)).toBe(true);
    assertSchemaValid(r.body);
    expect(r.body).not.toMatch(new RegExp(`IdentityDoc|${DOC_NUMBER}|TRAVELLER|4111111111111111`));
    return r.body;
  });
}

const minor = (text: string) => Math.round(Number(text) * 100);
const sum = (xs: string[]) => xs.reduce((a, x) => a + minor(x), 0);
const amounts = (xml: string, name: string) => [...xml.matchAll(new RegExp(`<cns:${name}><cns:TotalAmount CurCode="EUR">([^<]+)</cns:TotalAmount></cns:${name}>`, "g"))].map((m) => m[1]!);
const statusOf = (xml: string) => blocks(xml, "PaymentProcessingSummary").map((p) => all(p, "PaymentStatusCode")[0]);

test("a client without ndc:accounting cannot subscribe: 403 insufficient_scope", async () => {
  const noGrant = await otherSellerToken(t, "AGY-NOACCT", "99999993", "ndc:notif:subscribe");
  const r = await call(t, "POST", "/notifications/subscriptions", noGrant, { url: rx.url, events: ["accounting.sales_info"] });
  expect(r.status).toBe(403);
  expect(r.json.error).toBe("insufficient_scope");
  // Discovery lists the event as produced, and the sales-reporting capabilities.
  const doc = (await (await t.fetch("/24.4")).json()) as { notifications: { events: string[] }; capabilities: string[] };
  expect(doc.notifications.events).toContain("accounting.sales_info");
  expect(doc.capabilities).toEqual(expect.arrayContaining(["ACCREP", "ACCRE2"]));
});

test("a paid booking, an extra added, a cancellation with refund: SALE, CHANGE, REFUND, each once, with internal values that add up", async () => {
  const from = rx.requests.length;
  const { orderId, order } = await bookCancellable(t, "SI1", { seat: true });
  const [sale, ...more] = await pushedSince(from, orderId);
  expect(more).toHaveLength(0);
  expect(all(sale!, "OrderID")).toEqual([orderId]);
  // Another agency's order: accounting hears of every order, the seller is named in the chain.
  expect(sale!).toContain(`<cns:OrgID>${order.owner.agencyId}</cns:OrgID>`);
  const items = blocks(sale!, "OrderItem");
  expect(items.map((i) => all(i, "OrderItemID")[0]).sort()).toEqual(order.items.map((i) => i.orderItemId).sort());
  expect(items.every((i) => all(i, "StatusCode").at(-1) === "SALE")).toBe(true);
  // Every service carries its internal value (a ticketless seat too); together they are the order's total.
  expect(blocks(sale!, "InternalValue")).toHaveLength(blocks(sale!, "Service").length);
  expect(sum(amounts(sale!, "InternalValue"))).toBe(order.totalMinor);
  expect(statusOf(sale!)).toEqual(["CAPTURED"]);
  expect(sum(blocks(sale!, "PaymentProcessingSummary").map((p) => /<cns:Amount CurCode="EUR">([^<]+)</.exec(p)![1]!))).toBe(order.totalMinor);
  expect(all(sale!, "OrderVersionNumber")).toEqual([String((await t.gw.orders.retrieve(orderId, sellerOf(t))).version)]);

  // A post-sale extra: its own item, its own leg.
  const listed = await extrasFor(t, orderId);
  const pick = listed.items.find((i) => i.paxIds.includes("PAX1"))!;
  const counted = await countWrites(t.gw.store, t.gw.orders.ctx.payments.psp, () => t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: pick.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: pick.unitMinor }])));
  expect(counted.result.status).toBe(200);
  // The same writes as without a report (test/servicing/add-commit-count.test.ts): open, commit, close.
  expect(counted.gateway).toBe(3);
  const [, change, ...more2] = await pushedSince(from, orderId);
  expect(more2).toHaveLength(0);
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  const charge = after.charges![0]!;
  expect(blocks(change!, "OrderItem").map((i) => all(i, "OrderItemID")[0])).toEqual(charge.orderItemIds);
  expect(all(change!, "StatusCode")).toContain("CHANGE");
  expect(sum(amounts(change!, "InternalValue"))).toBe(charge.amountMinor);
  expect(statusOf(change!)).toEqual(["CAPTURED"]);

  // The cancellation: the refund, leg by leg, newest first.
  const q = await quote(t, orderId);
  const cancelled = await countWrites(t.gw.store, t.gw.orders.ctx.payments.psp, () => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId)));
  expect(cancelled.result.status).toBe(200);
  // As without a report (test/servicing/cancel-commit-count.test.ts): commit, then refunds and `done`.
  expect(cancelled.gateway).toBe(2);
  const [, , refund, ...more3] = await pushedSince(from, orderId);
  expect(more3).toHaveLength(0);
  expect(all(refund!, "StatusCode")).toContain("REFUND");
  expect(all(refund!, "StatusCode")).toContain("CANCELLED");
  expect(statusOf(refund!).every((s) => s === "REFUNDED")).toBe(true);
  const refunded = blocks(refund!, "PaymentProcessingSummary").map((p) => /<cns:Amount CurCode="EUR">([^<]+)</.exec(p)![1]!);
  expect(sum(refunded)).toBe(minor(q.refund));
  expect(minor(q.refund)).toBeGreaterThan(0);

  // Every push is in the deliveries list, delivered once.
  const list = await call(t, "GET", `/notifications/subscriptions/${subId}/deliveries`, accounting);
  const mine = list.json.deliveries.filter((d: { orderId: string }) => d.orderId === orderId);
  expect(mine.map((d: { status: string; attempts: number; event: string }) => [d.event, d.status, d.attempts])).toEqual(Array(3).fill(["accounting.sales_info", "delivered", 1]));
}, 30_000);

test("a flight change paid by card: CHANGE with the flight items it replaced and the amount due", async () => {
  const { order } = await bookCancellable(t, "SI-FC", { brand: "CLASSIC" });
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }));
  const due = Math.round(Number(q.offers[0]!.due) * 100);
  await t.gw.notifications.dispatcher.tick(); // the booking's own SALE goes first
  const from = rx.requests.length;
  const r = await t.ndc("OrderChangeRQ", addRQ(order.orderId, q.offers[0]!.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: due }], { correlationId: "SI-FC", trxId: "t1" }));
  expect(r.status).toBe(200);
  const [change, ...more] = await pushedSince(from, order.orderId);
  expect(more).toHaveLength(0);
  expect(blocks(change!, "OrderItem").map((i) => all(i, "OrderItemID")[0]).sort()).toEqual([...out.itemIds].sort());
  expect(all(change!, "StatusCode")).toContain("CHANGE");
  expect(statusOf(change!)).toEqual(["CAPTURED"]);
  expect(blocks(change!, "PaymentProcessingSummary").map((p) => minor(/<cns:Amount CurCode="EUR">([^<]+)</.exec(p)![1]!))).toEqual([due]);
  // The new flights are the ones reported.
  const after = await t.gw.orders.retrieve(order.orderId, sellerOf(t));
  for (const k of after.journeys[0]!.flightKeys) expect(change!).toContain(`SEG-${k}`);
}, 60_000);

test("ticketless lines: a partner product and a seat sold for nothing are reported through their services, with internal values", async () => {
  const out = await shopOneWay(t, "LHR", "CDG", dayAfter(T0, 54));
  const lounge = (await serviceItems(t, out.offerId)).get("SD-PP-LOUNGE-LHR")!;
  let free: Awaited<ReturnType<typeof seatItem>> | undefined;
  for (let n = 0; n < 60 && !free; n++) {
    const s = await seatItem(t, out.offerId, n);
    if (s.priceMinor === 0) free = s;
  }
  expect(free).toBeDefined();
  const picks = [out, lounge, free!];
  const from = rx.requests.length;
  const r = await t.ndc(
    "OrderCreateRQ",
    multiOrderCreateRQ({ create: quotedList(picks), pax: [{ id: "PAX1", surname: "HOPPER", given: "Grace", email: "grace@example.test" }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: total(picks) }], correlationId: "SI-TICKETLESS" }),
  );
  expect(r.status).toBe(200);
  const orderId = orderIdOf(r.body);
  const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
  const [sale, ...more] = await pushedSince(from, orderId);
  expect(more).toHaveLength(0);
  const itemXml = (kind: string) => {
    const item = order.items.find((i) => i.kind === kind)!;
    return { item, xml: blocks(sale!, "OrderItem").find((x) => all(x, "OrderItemID")[0] === item.orderItemId)! };
  };
  const partner = itemXml("partner_product");
  expect(partner.item.totalMinor).toBeGreaterThan(0);
  expect(blocks(partner.xml, "Service").length).toBeGreaterThan(0);
  expect(sum(amounts(partner.xml, "InternalValue"))).toBe(partner.item.totalMinor);
  const seat = itemXml("seat");
  expect(seat.item.totalMinor).toBe(0);
  expect(amounts(seat.xml, "InternalValue")).toEqual(["0.00"]);
  expect(blocks(seat.xml, "SeatOnLeg")).toHaveLength(1);
  expect(sum(amounts(sale!, "InternalValue"))).toBe(order.totalMinor);
}, 60_000);

test("a declined payment: VOID with the leg released and the leg declined; a held order reports nothing; the paid retry is the SALE", async () => {
  const from = rx.requests.length;
  const held = await shopOffer(t, { pax: 1, n: 1 });
  expect((await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped: held, correlationId: "SI-HELD", trxId: "T1" }))).status).toBe(200);
  expect(await pushedSince(from)).toHaveLength(0);

  const shopped = await shopOffer(t, { pax: 1, n: 2 });
  const half = Math.floor(shopped.totalMinor / 2);
  const r = await t.ndc(
    "OrderCreateRQ",
    orderCreateRQ({
      shopped,
      pax: [{ id: "PAX1", surname: "TRAVELLER", doc: { number: DOC_NUMBER } }],
      legs: [
        { kind: "card", token: "tok_approve_visa", amountMinor: half },
        { kind: "card", token: "tok_decline", amountMinor: shopped.totalMinor - half },
      ],
      correlationId: "SI-VOID",
      trxId: "T1",
    }),
  );
  expect(r.status).toBe(200);
  const orderId = orderIdOf(r.body);
  const [voided, ...more] = await pushedSince(from);
  expect(more).toHaveLength(0);
  expect(all(voided!, "OrderID")).toEqual([orderId]);
  expect(all(voided!, "StatusCode")).toContain("VOID");
  expect(all(voided!, "StatusCode")).toContain("PAYMENT_DECLINED");
  expect(statusOf(voided!).sort()).toEqual(["DECLINED", "VOIDED"]);

  // The seller pays the held order with OrderChangeRQ: now it is a SALE.
  const paid = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, (shopped.totalMinor / 100).toFixed(2), "tok_approve_visa", { correlationId: "SI-RETRY", trxId: "T2" }));
  expect(paid.status).toBe(200);
  const [, sale, ...more2] = await pushedSince(from, orderId);
  expect(more2).toHaveLength(0);
  expect(all(sale!, "StatusCode")).toContain("SALE");
  expect(statusOf(sale!)).toEqual(["CAPTURED"]);
}, 30_000);

test("a paid booking reported to accounting costs no extra durable write: 4 gateway writes", async () => {
  const shopped = await shopOffer(t, { pax: 1, n: 3 });
  const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "SI-COUNT", trxId: "T1" });
  const from = rx.requests.length;
  const counted = await countWrites(t.gw.store, t.gw.orders.ctx.payments.psp, () => t.ndc("OrderCreateRQ", rq));
  expect(counted.result.status).toBe(200);
  expect(counted.gateway).toBeLessThanOrEqual(4);
  expect(await pushedSince(from)).toHaveLength(1);
}, 30_000);

test("the report commits with the money event or not at all", async () => {
  const shopped = await shopOffer(t, { pax: 1, n: 4 });
  const orderIds = async () => ((await t.gw.store.db.all("SELECT order_id AS id FROM orders")) as { id: string }[]).map((r) => r.id);
  const before = new Set(await orderIds());
  const allowSales = await refuseInserts(t.gw.store, "notification_deliveries");
  let orderId: string;
  try {
    const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "SI-FAIL", trxId: "T1" }));
    // The close write (the captures and their report) fails, like any failed write: 500, the booking stands, its capture unrecorded.
    expect(r.status).toBe(500);
    orderId = (await orderIds()).find((id) => !before.has(id))!;
    const rows = (await t.gw.store.db.all(`SELECT count(*) AS n FROM notification_deliveries WHERE order_id = '${orderId}'`)) as { n: number }[];
    expect(rows[0]!.n).toBe(0);
    const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
    expect(order.legs.map((l) => l.state)).toEqual(["authorised"]);
  } finally {
    await allowSales();
  }
  // The reconciler closes it later: the captures and the report then commit together, once.
  const from = rx.requests.length;
  clock.advance(120_000);
  await t.gw.orders.reconcile();
  const [sale, ...more] = await pushedSince(from, orderId);
  expect(more).toHaveLength(0);
  expect(all(sale!, "StatusCode")).toContain("SALE");
  expect(statusOf(sale!)).toEqual(["CAPTURED"]);
}, 30_000);

test("a grant revoked after subscribing stops the deliveries: nothing is sent, the delivery is failed and says why", async () => {
  await revokeScopes(t.gw.store, accountingClient, ["ndc:accounting"]);
  const from = rx.requests.length;
  const { orderId } = await bookCancellable(t, "SI5", { seat: false });
  await t.gw.notifications.dispatcher.tick();
  expect(rx.requests.length).toBe(from);
  const list = await call(t, "GET", `/notifications/subscriptions/${subId}/deliveries`, accounting);
  const d = list.json.deliveries.find((x: { orderId: string }) => x.orderId === orderId);
  expect(d).toEqual(expect.objectContaining({ status: "failed", attempts: 1, lastHttpStatus: null, lastError: "grant ndc:accounting not held" }));
}, 30_000);
