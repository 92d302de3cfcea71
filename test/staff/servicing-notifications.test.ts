import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { verifyWebhook } from "@ndc/notifications";
import { assertSchemaValid } from "../support/xsd";
import { DOC_NUMBER } from "../orders-http/helpers";
import { all, blocks } from "../orders-http/order-list-helpers";
import { bookCancellable } from "../servicing/cancel-helpers";
import { outboundOf } from "../servicing/flight-change-helpers";
import { call, startReceiver, type Receiver } from "../notifications/helpers";
import { addEveryRole, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 19 item 14: a change the airline's staff make through the staff API (the console posts to
 * the same functions) is an airline-initiated change, pushed to the order's seller as
 * OrderChangeNotifRQ (event order.changed) with the changed order in CurrentOrder, as OrderViewRS
 * shows it, with no identity document (spec 6). Each push is checked on the wire: Standard
 * Webhooks signature, IATA_OrderChangeNotifRQ.xsd with xmllint, the codes, the order's version.
 */
let w: StaffWorld;
let senior: Session;
let supervisor: Session;
let rx: Receiver;
let secret: string;

beforeAll(async () => {
  w = await staffWorld({ ORDERS_BACKGROUND_MS: "0" });
  await addEveryRole(w);
  ({ senior, supervisor } = await logInEveryRole(w));
  rx = startReceiver();
  const sub = await call(w.t, "POST", "/notifications/subscriptions", w.t.gw.sandbox!.api_key, { url: rx.url, events: ["order.changed"] });
  expect(sub.status).toBe(201);
  secret = sub.json.secret;
}, 60_000);
afterAll(async () => {
  rx.stop();
  await w.t.close();
});

const REASON = "Passenger hospitalised, changed as goodwill";
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (s: Session, orderId: string, step: string, body: unknown) => s.call(`/staff/api/orders/${orderId}/servicing/${step}`, { method: "POST", body });
/** One passenger holding a passport: its number must never be pushed. */
const PAX = [{ id: "PAX1", surname: "TRAVELLER", doc: { number: DOC_NUMBER } }];

/** Sends what is due and returns the OrderChangeNotifRQ pushes received since `from`, each verified. */
async function pushedSince(from: number): Promise<string[]> {
  await w.t.gw.notifications.dispatcher.tick();
  return rx.requests.slice(from).map((r) => {
    expect(r.path).toBe("/24.4/OrderChangeNotifRQ");
    expect(r.headers.get("iata-message-name")).toBe("IATA_OrderChangeNotifRQ");
    const h = { id: r.headers.get("webhook-id")!, timestamp: r.headers.get("webhook-timestamp")!, signature: r.headers.get("webhook-signature")! };
    expect(verifyWebhook(secret, h, r.body)).toBe(true);
    assertSchemaValid(r.body, "IATA_OrderChangeNotifRQ.xsd");
    // Spec 6: the pushed snapshot omits identity documents; the number appears nowhere.
    expect(r.body).not.toContain("IdentityDoc");
    expect(r.body).not.toContain(DOC_NUMBER);
    return r.body;
  });
}

/** The push's codes, version and snapshot, read from the XML. */
function read(body: string) {
  const current = blocks(body, "CurrentOrder")[0] ?? "";
  return {
    changeTypeCode: all(body, "ChangeTypeCode")[0],
    reasonCode: all(body, "ReasonCode")[0],
    version: Number(all(body, "OrderVersionNumber")[0]),
    orderRefId: all(body, "OrderRefID").at(-1),
    current,
    currentOrderId: all(current, "OrderID")[0],
    currentVersion: Number(all(current, "OrderVersionNumber")[0]),
    currentStatus: all(blocks(current, "Order")[0] ?? "", "StatusCode").at(-1),
    surnames: all(current, "Surname"),
  };
}

describe("staff changes push OrderChangeNotifRQ with the changed order", () => {
  test("a whole-order cancellation overriding the fare: one push, AIRLINE_STAFF_OVERRIDE, the cancelled order without its document", async () => {
    const { orderId } = await bookCancellable(w.t, "SNT1", { brand: "SAVER", pax: PAX });
    const from = rx.requests.length;
    // The seller's own servicing is not pushed back to the seller: only the airline's changes are.
    expect(await pushedSince(from)).toEqual([]);
    const q = await json(await post(senior, orderId, "cancel/quote", {}));
    expect(q.body.override).toMatchObject({ ruleCode: "fare_not_cancellable" });
    const done = await json(await post(senior, orderId, "cancel", { quoteId: q.body.quoteId, reason: REASON }));
    expect(done.status).toBe(200);
    const pushes = await pushedSince(from);
    expect(pushes.length).toBe(1);
    const p = read(pushes[0]!);
    const after = (await w.t.gw.orders.airlineDetails(orderId)).order;
    const cancelled = after.history.find((h) => h.kind === "cancelled")!;
    expect(p).toMatchObject({ changeTypeCode: "ORDER_CANCELLED", reasonCode: "AIRLINE_STAFF_OVERRIDE", version: cancelled.version, orderRefId: orderId, currentOrderId: orderId, currentVersion: cancelled.version, currentStatus: "CANCELLED" });
    // The order as OrderViewRS shows it: its passenger by name, its items and payments.
    expect(p.surnames).toEqual(["TRAVELLER"]);
    expect(blocks(p.current, "OrderItem").length).toBe(after.items.length);
    expect(blocks(p.current, "PaymentFunctions").length).toBeGreaterThan(0);
    // A repeated acceptance changes nothing and pushes nothing.
    await post(senior, orderId, "cancel", { quoteId: q.body.quoteId, reason: REASON });
    expect(await pushedSince(from + 1)).toEqual([]);
  }, 90_000);

  test("items cancelled by a supervisor: ITEMS_CANCELLED, the snapshot without the seat", async () => {
    const { orderId, order } = await bookCancellable(w.t, "SNT2", { brand: "SAVER", pax: PAX });
    const seat = order.items.find((i) => i.kind === "seat")!;
    const from = rx.requests.length;
    const q = await json(await post(supervisor, orderId, "cancel/quote", { orderItemIds: [seat.orderItemId] }));
    expect((await json(await post(supervisor, orderId, "cancel", { quoteId: q.body.quoteId, reason: REASON }))).status).toBe(200);
    const pushes = await pushedSince(from);
    expect(pushes.length).toBe(1);
    const p = read(pushes[0]!);
    expect(p).toMatchObject({ changeTypeCode: "ITEMS_CANCELLED", reasonCode: "AIRLINE_STAFF_OVERRIDE", currentStatus: "BOOKED" });
    expect(all(p.current, "OrderItemID")).not.toContain(seat.orderItemId);
    expect(p.currentVersion).toBe(p.version);
  }, 90_000);

  test("a flight change overriding a LIGHT fare: FLIGHTS_CHANGED, the snapshot on the new flights", async () => {
    const { orderId, order } = await bookCancellable(w.t, "SNT3", { brand: "LIGHT", seat: false, pax: PAX });
    const out = outboundOf(w.t, order);
    const next = new Date(Date.parse(`${out.date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const from = rx.requests.length;
    const q = await json(await post(senior, orderId, "change/quote", { direction: 0, date: next }));
    expect(q.body.allowance).toMatchObject({ by: "override" });
    const alt = q.body.alternatives[0];
    const done = await json(await post(senior, orderId, "change", { quoteId: alt.quoteId, reason: REASON, cardToken: "tok_approve_visa" }));
    expect(done.status).toBe(200);
    const pushes = await pushedSince(from);
    expect(pushes.length).toBe(1);
    const p = read(pushes[0]!);
    const after = (await w.t.gw.orders.airlineDetails(orderId)).order;
    expect(p).toMatchObject({ changeTypeCode: "FLIGHTS_CHANGED", reasonCode: "AIRLINE_STAFF_OVERRIDE", version: after.history.find((h) => h.kind === "flights_changed")!.version, currentStatus: "BOOKED" });
    for (const f of alt.flights as { key: string }[]) expect(p.current).toContain(`SEG-${f.key}`);
  }, 90_000);

  test("a seat added within the fare: ITEMS_ADDED, AIRLINE_STAFF, the snapshot with the new seat", async () => {
    const { orderId } = await bookCancellable(w.t, "SNT4", { brand: "LIGHT", seat: false, pax: PAX });
    const options = await json(await senior.call(`/staff/api/orders/${orderId}/servicing/options`));
    const seat = options.body.seats.items.find((s: any) => Number(s.price) > 0)!;
    const from = rx.requests.length;
    const q = await json(await post(senior, orderId, "add/quote", { form: "seat", offerId: options.body.seats.offerId, offerItemId: seat.offerItemId, paxId: seat.paxIds[0] }));
    expect((await json(await post(senior, orderId, "add", { quoteId: q.body.quoteId, reason: REASON, cardToken: "tok_approve_visa" }))).status).toBe(200);
    const pushes = await pushedSince(from);
    expect(pushes.length).toBe(1);
    const p = read(pushes[0]!);
    const after = (await w.t.gw.orders.airlineDetails(orderId)).order;
    const added = after.items.find((i) => i.kind === "seat" && i.ref === seat.seatId)!;
    expect(p).toMatchObject({ changeTypeCode: "ITEMS_ADDED", reasonCode: "AIRLINE_STAFF", version: after.history.find((h) => h.kind === "items_added")!.version });
    expect(all(p.current, "OrderItemID")).toContain(added.orderItemId);
  }, 90_000);

  test("the console's accept form (the same servicing call): a refundable order cancelled within its fare, AIRLINE_STAFF", async () => {
    const { orderId } = await bookCancellable(w.t, "SNT5", { pax: PAX });
    const from = rx.requests.length;
    const form = (path: string, fields: Record<string, string>) =>
      w.t.fetch(`/staff/orders/${orderId}/servicing/${path}`, { method: "POST", headers: { cookie: senior.cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ ...fields, csrf_token: senior.csrf }).toString(), redirect: "manual" });
    const page = await (await form("cancel/quote", {})).text();
    const quoteId = /name="quoteId" value="([^"]+)"/.exec(page)![1]!;
    const accepted = await form("cancel", { quoteId, reason: REASON });
    expect(accepted.status).toBe(303);
    const pushes = await pushedSince(from);
    expect(pushes.length).toBe(1);
    expect(read(pushes[0]!)).toMatchObject({ changeTypeCode: "ORDER_CANCELLED", reasonCode: "AIRLINE_STAFF", currentOrderId: orderId, currentStatus: "CANCELLED" });
  }, 90_000);

  test("a name correction by a senior agent (issue 19 item 17): PAX_UPDATED, AIRLINE_STAFF_OVERRIDE, the snapshot under the new name", async () => {
    const { orderId, order } = await bookCancellable(w.t, "SNT6", { brand: "CLASSIC", seat: false, pax: PAX });
    const from = rx.requests.length;
    const done = await json(await post(senior, orderId, "rename", { paxId: "PAX1", title: "MS", givenNames: ["Alexandra"], surname: "TRAVELER", reason: REASON, version: order.version }));
    expect(done.status).toBe(200);
    const pushes = await pushedSince(from);
    expect(pushes.length).toBe(1);
    const p = read(pushes[0]!);
    expect(p).toMatchObject({ changeTypeCode: "PAX_UPDATED", reasonCode: "AIRLINE_STAFF_OVERRIDE", currentOrderId: orderId, currentVersion: order.version + 1, currentStatus: "BOOKED" });
    expect(p.surnames).toEqual(["TRAVELER"]);
  }, 90_000);
});
