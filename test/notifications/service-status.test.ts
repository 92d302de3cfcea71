import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { verifyWebhook } from "@ndc/notifications";
import type { TestGateway } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { DOC_NUMBER, gateway } from "../orders-http/helpers";
import { all, blocks } from "../orders-http/order-list-helpers";
import { addRQ } from "../servicing/add-helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "../servicing/flight-change-helpers";
import { acceptCancelRQ, bookCancellable, quote, quoteItems, sellerOf } from "../servicing/cancel-helpers";
import { partyOrderCreateRQ, quotedOffers, shopParty } from "../orders-http/item-selection-helpers";
import { call, otherSellerToken, sellerWithToken, startReceiver, type Receiver } from "./helpers";

/**
 * ACCSTS, accounting.service_status (issue 19 item 16): the airline's revenue accounting (another
 * agency's client holding ndc:accounting) is told of every service earned (FLOWN, DELIVERED) or
 * gone unused (REFUNDED, FORFEITED, EXCHANGED), from real flows over HTTP, to a real receiver;
 * each push XSD-checked, its signature verified, its report id stable. The seller, who does not
 * hold the grant, receives none of it.
 */
let t: TestGateway;
let clock: ManualClock;
let rx: Receiver;
let sellerRx: Receiver;
let accounting: string;
let secret: string;
let subId: string;
const PAX = [{ id: "PAX1", surname: "TRAVELLER", doc: { number: DOC_NUMBER } }];

beforeAll(async () => {
  rx = startReceiver();
  sellerRx = startReceiver();
  ({ t, clock } = await gateway());
  ({ token: accounting } = await sellerWithToken(t, "AGY-STS", "99999994", "ndc:notif:subscribe ndc:accounting"));
  const sub = await call(t, "POST", "/notifications/subscriptions", accounting, { url: rx.url, events: ["accounting.service_status"] });
  expect(sub.status).toBe(201);
  secret = sub.json.secret;
  subId = sub.json.id;
  // The selling agency subscribes to everything it may: none of it is a status report.
  const own = await call(t, "POST", "/notifications/subscriptions", t.gw.sandbox!.api_key, { url: sellerRx.url, events: ["order.changed", "service.delivered", "order.closed", "order.payment_expired", "payment.clearance"] });
  expect(own.status).toBe(201);
}, 60_000);
afterAll(async () => {
  rx.stop();
  sellerRx.stop();
  await t.close();
});

/** Sends what is due; the status reports received since `from` about `orderId`, each checked: path, headers, signature, XSD, no personal data. */
async function reportedSince(from: number, orderId: string): Promise<string[]> {
  await t.gw.notifications.dispatcher.tick();
  expect(sellerRx.requests.some((r) => r.path === "/24.4/OrderSalesInformationNotifRQ")).toBe(false);
  return rx.requests
    .slice(from)
    .filter((r) => r.body.includes(`<cns:OrderID>${orderId}</cns:OrderID>`))
    .map((r) => {
      expect(r.path).toBe("/24.4/OrderSalesInformationNotifRQ");
      expect(r.headers.get("iata-message-name")).toBe("IATA_OrderSalesInformationNotifRQ");
      const h = { id: r.headers.get("webhook-id")!, timestamp: r.headers.get("webhook-timestamp")!, signature: r.headers.get("webhook-signature")! };
      expect(verifyWebhook(secret, h, r.body)).toBe(true);
      assertSchemaValid(r.body, "IATA_OrderSalesInformationNotifRQ.xsd");
      expect(r.body).not.toMatch(new RegExp(`IdentityDoc|${DOC_NUMBER}|TRAVELLER|PaymentFunctions`));
      return r.body;
    });
}

const minor = (text: string) => Math.round(Number(text) * 100);
const values = (xml: string) => [...xml.matchAll(/<cns:InternalValue><cns:TotalAmount CurCode="EUR">([^<]+)<\/cns:TotalAmount><\/cns:InternalValue>/g)].map((m) => minor(m[1]!));
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
/** Each reported item: its id, its StatusCode (the report's code) and its services' [StatusCode, DeliveryStatusCode, segments]. */
const itemsOf = (xml: string) =>
  blocks(xml, "OrderItem").map((i) => ({
    id: all(i, "OrderItemID")[0]!,
    code: all(i, "StatusCode").at(-1)!,
    services: blocks(i, "Service").map((s) => ({ status: all(s, "StatusCode").at(-1), delivery: all(s, "DeliveryStatusCode")[0], segments: all(s, "PaxSegmentRefID") })),
  }));
const reportId = (xml: string) => all(blocks(xml, "PayloadAttributes")[0]!, "CorrelationID")[0];

test("without ndc:accounting a client cannot subscribe; discovery advertises the event, ACCSTS and STPNTF", async () => {
  const noGrant = await otherSellerToken(t, "AGY-STS-NO", "99999995", "ndc:notif:subscribe");
  const r = await call(t, "POST", "/notifications/subscriptions", noGrant, { url: rx.url, events: ["accounting.service_status"] });
  expect([r.status, r.json.error]).toEqual([403, "insufficient_scope"]);
  const doc = (await (await t.fetch("/24.4")).json()) as { notifications: { events: string[] }; capabilities: string[] };
  expect(doc.notifications.events).toContain("accounting.service_status");
  expect(doc.capabilities).toEqual(expect.arrayContaining(["ACCSTS", "STPNTF"]));
});

test("flights flown: one FLOWN report of every service on them, DELIVERED, valued as the sale; retried and redelivered under one id; flown again reports nothing", async () => {
  const { orderId, order } = await bookCancellable(t, "STS-FLY", { seat: true, pax: PAX });
  const from = rx.requests.length;
  // Booking is money, not a status change: nothing yet.
  expect(await reportedSince(from, orderId)).toEqual([]);
  // The first attempt fails: retried as every push is.
  rx.answer = (n) => new Response(null, { status: n === from + 1 ? 503 : 204 });
  expect((await call(t, "POST", `/sandbox/orders/${orderId}/fly`, t.gw.sandbox!.api_key, {})).status).toBe(200);
  expect(await reportedSince(from, orderId)).toHaveLength(1);
  clock.advance(6_000);
  const [failed, flown, ...more] = await reportedSince(from, orderId);
  expect(more).toEqual([]);
  expect(flown).toBe(failed!);
  expect(rx.requests[from + 1]!.headers.get("webhook-id")).toBe(rx.requests[from]!.headers.get("webhook-id"));
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  // The report is keyed by the version the flights were recorded flown at; the closing check
  // may close the paid order right after (issue 19 item 19), which moves the version once more.
  const flownAt = after.history.filter((h) => h.kind !== "closed").at(-1)!.version;
  expect(reportId(flown!)).toBe(`STS-${orderId}-${flownAt}-1`);
  const items = itemsOf(flown!);
  expect(items.map((i) => i.id).sort()).toEqual(order.items.map((i) => i.orderItemId).sort());
  for (const i of items) {
    expect(i.code).toBe("FLOWN");
    for (const s of i.services) expect([s.status, s.delivery]).toEqual(["FLOWN", "DELIVERED"]);
  }
  // Every flight flew: the services' values are the whole sale's.
  expect(sum(values(flown!))).toBe(order.totalMinor);
  // Redelivered: the same report, the same id.
  const list = await call(t, "GET", `/notifications/subscriptions/${subId}/deliveries`, accounting);
  const delivery = list.json.deliveries.find((d: { orderId: string }) => d.orderId === orderId);
  expect(delivery).toMatchObject({ event: "accounting.service_status", messageName: "OrderSalesInformationNotifRQ", status: "delivered", attempts: 2 });
  expect((await call(t, "POST", `/notifications/subscriptions/${subId}/deliveries/${delivery.id}/redeliver`, accounting)).status).toBe(202);
  const [, , again] = await reportedSince(from, orderId);
  expect(again).toBe(flown!);
  // Flown again: nothing new is recorded, nothing is reported.
  await call(t, "POST", `/sandbox/orders/${orderId}/fly`, t.gw.sandbox!.api_key, {});
  expect(await reportedSince(from, orderId)).toHaveLength(3);
}, 60_000);

test("a partner product and a ride fulfilled: DELIVERED for their services, FLOWN for the flights", async () => {
  const party = await shopParty(t, clock);
  const esim = party.services.get("PP-ESIM/-")!;
  const car = party.services.get("RD-LHR-CAR/-")!;
  const namings = [{ item: party.flights[0]!, pax: ["PAX1", "PAX2"] }, { item: party.flights[1]!, pax: ["PAX3"] }, { item: esim, pax: ["PAX1", "PAX2", "PAX3"] }, { item: car, pax: ["PAX1", "PAX2", "PAX3"] }];
  const total = party.flights.reduce((n, f) => n + f.stored.totalMinor, 0) + esim.stored.unitMinor! + car.stored.unitMinor!;
  const r = await t.ndc("OrderCreateRQ", partyOrderCreateRQ(quotedOffers(namings), total, "STS-PARTNER", "orders@agency.example"));
  expect(r.status).toBe(200);
  const orderId = all(r.body, "OrderID")[0]!;
  const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
  const from = rx.requests.length;
  expect((await call(t, "POST", `/sandbox/orders/${orderId}/fly`, t.gw.sandbox!.api_key, {})).status).toBe(200);
  const reports = await reportedSince(from, orderId);
  const byCode = new Map(reports.flatMap((x) => itemsOf(x).map((i) => [i.id, i.code] as const)));
  const partnerIds = order.items.filter((i) => i.kind === "partner_product" || i.kind === "ride").map((i) => i.orderItemId);
  expect(partnerIds.length).toBe(2);
  for (const id of partnerIds) expect(byCode.get(id)).toBe("DELIVERED");
  for (const i of order.items.filter((x) => x.kind === "flight")) expect(byCode.get(i.orderItemId)).toBe("FLOWN");
  expect(new Set(reports.map(reportId)).size).toBe(reports.length);
}, 60_000);

test("cancellations: REFUNDED when money goes back, FORFEITED when none does; an items cancellation reports its items only", async () => {
  // CLASSIC keeps the fare: a cancellation without extras gives nothing back.
  const kept = await bookCancellable(t, "STS-FORFEIT", { brand: "CLASSIC", seat: false, pax: PAX });
  const q1 = await quote(t, kept.orderId);
  expect(minor(q1.refund)).toBe(0);
  let from = rx.requests.length;
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(kept.orderId, q1.quoteId))).status).toBe(200);
  const [forfeited, ...none] = await reportedSince(from, kept.orderId);
  expect(none).toEqual([]);
  expect(itemsOf(forfeited!).map((i) => [i.id, i.code])).toEqual(kept.order.items.map((i) => [i.orderItemId, "FORFEITED"]));
  expect(sum(values(forfeited!))).toBe(kept.order.totalMinor);
  expect(all(forfeited!, "StatusCode").at(-1)).toBe("CANCELLED");

  // Its seat cancelled alone (extras are refunded), then the rest of the order.
  const { orderId, order } = await bookCancellable(t, "STS-REFUND", { seat: true, pax: PAX });
  const seat = order.items.find((i) => i.kind === "seat")!;
  const qi = await quoteItems(t, orderId, [seat.orderItemId]);
  expect(minor(qi.refund)).toBeGreaterThan(0);
  from = rx.requests.length;
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, qi.quoteId))).status).toBe(200);
  const [seatGone] = await reportedSince(from, orderId);
  expect(itemsOf(seatGone!).map((i) => [i.id, i.code])).toEqual([[seat.orderItemId, "REFUNDED"]]);
  expect(sum(values(seatGone!))).toBe(seat.totalMinor);
  const q2 = await quote(t, orderId);
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q2.quoteId))).status).toBe(200);
  const [, rest, ...more] = await reportedSince(from, orderId);
  expect(more).toEqual([]);
  const code = minor(q2.refund) > 0 ? "REFUNDED" : "FORFEITED";
  expect(itemsOf(rest!).map((i) => [i.id, i.code]).sort()).toEqual(order.items.filter((i) => i !== seat).map((i) => [i.orderItemId, code]).sort());
  expect(new Set([reportId(seatGone!), reportId(rest!)]).size).toBe(2);
}, 60_000);

test("a flight change: EXCHANGED for the services on the replaced flights, read as they were", async () => {
  const { order } = await bookCancellable(t, "STS-EXCH", { brand: "CLASSIC", seat: false, pax: PAX });
  const out = outboundOf(t, order);
  const next = new Date(Date.parse(`${out.date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: next }));
  const due = Math.round(Number(q.offers[0]!.due) * 100);
  const from = rx.requests.length;
  const r = await t.ndc("OrderChangeRQ", addRQ(order.orderId, q.offers[0]!.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: due }], { correlationId: "STS-EXCH", trxId: "t1" }));
  expect(r.status).toBe(200);
  const [exchanged, ...more] = await reportedSince(from, order.orderId);
  expect(more).toEqual([]);
  const items = itemsOf(exchanged!);
  expect(items.map((i) => i.id).sort()).toEqual([...out.itemIds].sort());
  const old = order.journeys[0]!.flightKeys.map((k) => `SEG-${k}`);
  for (const i of items) {
    expect(i.code).toBe("EXCHANGED");
    for (const s of i.services) {
      expect(s.status).toBe("EXCHANGED");
      expect(s.delivery).toBeUndefined();
      expect(old).toEqual(expect.arrayContaining(s.segments));
    }
  }
  const after = await t.gw.orders.retrieve(order.orderId, sellerOf(t));
  for (const k of after.journeys[0]!.flightKeys) expect(exchanged!).not.toContain(`SEG-${k}`);
}, 60_000);
