import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_FLIGHT_CHANGE_COMBINATIONS, signFlightsChange, verifyFlightChange, verifyFlightsChange, type Order } from "@ndc/orders";
import { countWrites } from "../support/count-writes";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { addRQ, reshopped, reshopSeatRQ, seatsFor } from "./add-helpers";
import { sellerOf } from "./cancel-helpers";
import { bookBrand, BOOKING_TEST_MS } from "./helpers";
import { call, sellerWithToken, startReceiver } from "../notifications/helpers";
import { assertSchemaValid } from "../support/xsd";
import { directionsOf, flightQuote, reshopFlightRQ, reshopFlightsRQ, type FlightQuoteSeen } from "./flight-change-helpers";

/**
 * Both directions of a return changed in one OrderReshopRQ (issue 20 item 5; decision 0016,
 * addendum "several directions"): FlightRequest with one OriginDestCriteria per direction, as
 * IATA's examples write a return, answered with one offer per combination of one alternative per
 * direction (cheapest first, at most MAX_FLIGHT_CHANGE_COMBINATIONS), each priced as one change
 * (each direction's fee and difference, summed) under one signed id; OrderChangeRQ naming it
 * replaces both directions in one operation: one commit write, one charge or one refund, the seats
 * moved with their flights. Every answer is XSD-checked by t.ndc (xmllint --nonet).
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const OUT_DAY = "2027-01-13";
const BACK_DAY = "2027-01-16";

const get = async (orderId: string) => (await t.gw.orders.ctx.orders.ask(orderId, { op: "get" }))!;
const flightItems = (order: Order) => order.items.filter((i) => i.kind === "flight").map((i) => i.orderItemId);
const minorOf = (text: string, currency: string) => Math.round(Number(text) * (currency === "JPY" ? 1 : 100));

/** A CLASSIC return (LHR-CDG 2027-01-12, back 2027-01-15) for one passenger, paid by card. */
async function bookedReturn(currency = "EUR", cards = 1): Promise<Order> {
  const b = await bookBrand(t, "CLASSIC", { back: true, currency, cards });
  const order = await t.gw.orders.retrieve(b.orderId, sellerOf(t));
  expect(order.journeys.length).toBe(2);
  return order;
}

/** Both directions reshopped in one message, to these days. */
async function quoteBoth(order: Order, days: [string, string]): Promise<FlightQuoteSeen> {
  const [out, back] = directionsOf(t, order);
  return flightQuote(t, reshopFlightsRQ(order.orderId, flightItems(order), [{ ...out!, date: days[0] }, { ...back!, date: days[1] }]));
}

/** Each direction's sums as the offer states them (new fare, replaced fare, surcharge, discount, fee): their dues add up to the offer's. */
function directionDues(desc: string[], currency: string): number[] {
  return desc
    .filter((d) => d.includes("New fare"))
    .map((d) => {
      const [fare, held, surcharge, discount, fee] = [...d.matchAll(new RegExp(`(-?[\\d.]+) ${currency}`, "g"))].map((m) => minorOf(m[1]!, currency));
      return fare! - held! - surcharge! + discount! + fee!;
    });
}

const accept = (orderId: string, quoteId: string, legs: { card: string; minor: number }[], trxId = "trx-1") =>
  t.ndc("OrderChangeRQ", addRQ(orderId, quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], legs, { correlationId: `fcd-${orderId}`, trxId }));

test("both directions reshopped in one OrderReshopRQ: combinations cheapest first, each priced as one change (fees per direction), one signed id of at most 128 characters", async () => {
  const order = await bookedReturn();
  const q = await quoteBoth(order, [OUT_DAY, BACK_DAY]);
  // The two directions' fees: 25.00 EUR each for the one passenger (the band more than 72 h out).
  expect(q.fee).toBe("50.00");
  expect(q.offers.length).toBeGreaterThan(1);
  expect(q.offers.length).toBeLessThanOrEqual(MAX_FLIGHT_CHANGE_COMBINATIONS);
  const dues = q.offers.map((o) => minorOf(o.due, "EUR"));
  expect(dues).toEqual([...dues].sort((a, b) => a - b));
  const seen = new Set<string>();
  for (const o of q.offers) {
    // Each offer names a flight of each direction, and its due is the sum of the directions' (each with its fee).
    const flights = o.desc.filter((d) => d.includes("Flights:"));
    expect(flights.length).toBe(2);
    expect(flights[0]).toContain(`LHR-CDG ${OUT_DAY}`);
    expect(flights[1]).toContain(`CDG-LHR ${BACK_DAY}`);
    const each = directionDues(o.desc, "EUR");
    expect(each.length).toBe(2);
    expect(each[0]! + each[1]!).toBe(minorOf(o.due, "EUR"));
    expect(o.quoteId.length).toBeLessThanOrEqual(128);
    seen.add(flights.join(" "));
    // The replaced items, and the one penalty the fees are.
    const offer = blocks(q.body, "Offer").find((b) => b.includes(o.quoteId))!;
    expect(all(offer, "OrderItemRefID").sort()).toEqual(flightItems(order).sort());
    // One AddedOfferItem per direction (issue 20 item 7), each with its own due, adding up to the offer's.
    const added = blocks(offer, "AddedOfferItem");
    expect(added.map((a) => all(a, "OfferItemID")[0]!.replace(/^FC\d+-/, ""))).toEqual(["NEW1", "NEW2"]);
    const dueOf = (a: string) => {
      const to = /DueToAirlineAmount[^>]*>([^<]+)</.exec(a)?.[1];
      const by = /DueByAirlineAmount[^>]*>([^<]+)</.exec(a)?.[1];
      return to ? minorOf(to, "EUR") : by ? -minorOf(by, "EUR") : 0;
    };
    expect(added.map(dueOf)).toEqual(each);
  }
  expect(seen.size).toBe(q.offers.length);
  // The signed id carries both directions, the whole due, the order's version.
  const signed = verifyFlightsChange(t.gw.orders.ctx.fieldKey, q.offers[0]!.quoteId, order.orderId, "X");
  expect(signed.directions.map((d) => d.direction)).toEqual([0, 1]);
  expect(signed.dueMinor).toBe(dues[0]);
  expect(signed.version).toBe(order.version);
});

test("the compact id: two directions of two flights each (4-digit numbers, the longest brand, a 6-digit refund) stay within 128 characters and read back; one-direction ids keep their form", () => {
  const key = t.gw.orders.ctx.fieldKey;
  const s = {
    orderId: "ORD-X", version: 999, dueMinor: -999_999, expiresAt: Date.UTC(2027, 0, 1),
    directions: [
      { direction: 0, brandCode: "BUSINESS", flightKeys: ["XB-1234-2027-01-12", "XB-2345-2027-01-13"] },
      { direction: 1, brandCode: "BUSINESS", flightKeys: ["XB-3456-2027-01-15", "XB-4567-2027-01-15"] },
    ],
  };
  const id = signFlightsChange(key, s);
  expect(id.length).toBeLessThanOrEqual(128);
  expect(verifyFlightsChange(key, id, "ORD-X", "X")).toEqual(s);
  expect(() => verifyFlightsChange(key, id, "ORD-Y", "X")).toThrow(expect.objectContaining({ code: "offer_not_found" }));
  // One direction: the eight-part FCQ form as before, read by both readers.
  const one = signFlightsChange(key, { ...s, directions: [s.directions[0]!] });
  expect(one.split(".").length).toBe(8);
  expect(verifyFlightChange(key, one, "ORD-X", "X").flightKeys).toEqual(s.directions[0]!.flightKeys);
  expect(verifyFlightsChange(key, one, "ORD-X", "X")).toEqual({ ...s, directions: [s.directions[0]!] });
});

test("accepting a combination: both directions replaced in one operation (3 gateway writes), one charge (authorise and capture: 2 PSP writes), seats moved per direction; OrderHistoryRS shows one FLIGHTS_CHANGED with both", async () => {
  const order0 = await bookedReturn();
  // A seat on each direction's flight, bought after booking: each moves with its own direction.
  for (const [i, d] of directionsOf(t, order0).entries()) {
    // The order's seat map names seats of both flights: the first priced one this flight sells.
    const listed = [...(await seatsFor(t, order0.orderId)).seats].filter(([, x]) => x.unitMinor > 0).map(([id]) => id);
    let r = { status: 0, body: "" };
    let seatId = "";
    for (seatId of listed) if ((r = await t.ndc("OrderReshopRQ", reshopSeatRQ(order0.orderId, d, "PAX1", seatId))).status === 200) break;
    expect(r.status).toBe(200);
    const offer = reshopped(r.body);
    const item = offer.items[0]!;
    const bought = await t.ndc("OrderChangeRQ", addRQ(order0.orderId, offer.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], item.unitMinor > 0 ? [{ card: "tok_approve_visa", minor: item.unitMinor }] : [], { correlationId: `seat-${i}-${order0.orderId}` }));
    expect(bought.status).toBe(200);
  }
  const order = await get(order0.orderId);
  expect(order.seatHolds.length).toBe(2);
  const q = await quoteBoth(order, [OUT_DAY, BACK_DAY]);
  const offer = q.offers[0]!;
  const dueMinor = minorOf(offer.due, "EUR");
  expect(dueMinor).toBeGreaterThan(0);
  const signed = verifyFlightsChange(t.gw.orders.ctx.fieldKey, offer.quoteId, order.orderId, "X");

  const count = <T>(fn: () => Promise<T>) => countWrites(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
  const first = await count(() => accept(order.orderId, offer.quoteId, [{ card: "tok_approve_visa", minor: dueMinor }]));
  expect(first.result.status).toBe(200);
  expect(first.gateway).toBe(3);
  expect(first.psp).toBe(2);

  const after = await get(order.orderId);
  // One change: flights_changed (both directions), then the capture.
  expect(after.history.slice(order.history.length).map((h) => h.kind)).toEqual(["flights_changed", "payment_captured"]);
  expect(after.journeys.map((j) => j.flightKeys)).toEqual(signed.directions.map((d) => d.flightKeys));
  expect(after.journeys.map((j) => j.paxJourneyId)).toEqual(order.journeys.map((j) => j.paxJourneyId));
  expect(after.totalMinor).toBe(order.totalMinor + dueMinor);
  const newLegs = after.legs.filter((l) => !order.legs.some((o) => o.legId === l.legId));
  expect(newLegs.map((l) => [l.amountMinor, l.state])).toEqual([[dueMinor, "captured"]]);
  expect(after.charges!.at(-1)!.amountMinor).toBe(dueMinor);
  // Each direction's seat on its own new flight (the same seat id when free there: seatsOnNewFlight); none left on the old flights.
  for (const [i, j] of order.journeys.entries()) {
    const old = order.seatHolds.find((h) => j.flightKeys.includes(h.flightKey))!;
    const moved = after.seatHolds.find((h) => h.flightKey === after.journeys[i]!.flightKeys[0])!;
    expect(moved.seatIds.length).toBe(old.seatIds.length);
    const map = (await t.gw.orders.ctx.inventory.seatAvailability(moved.flightKey)).seats;
    expect(moved.seatIds.map((id) => map.find((x) => x.seatId === id)?.status)).toEqual(["sold"]);
  }
  const oldKeys = order.journeys.flatMap((j) => j.flightKeys);
  expect(after.seatHolds.some((h) => oldKeys.includes(h.flightKey))).toBe(false);

  // OrderRetrieveRS: the new flights of both directions, none of the old.
  const retrieved = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(order.orderId));
  const newKeys = after.journeys.flatMap((j) => j.flightKeys);
  for (const k of newKeys) expect(retrieved.body).toContain(`<cns:PaxSegmentID>SEG-${k}</cns:PaxSegmentID>`);
  for (const k of oldKeys) expect(retrieved.body).not.toContain(`SEG-${k}`);
  // OrderHistoryRS: one FLIGHTS_CHANGED, the order before it with both old directions, after it with both new.
  const h = await t.ndc("OrderHistoryRQ", orderHistoryRQ(order.orderId));
  const changed = blocks(h.body, "ChangeOperation").filter((o) => o.includes("<ChangeTypeCode>FLIGHTS_CHANGED</ChangeTypeCode>"));
  expect(changed.length).toBe(1);
  const [before, now] = [blocks(changed[0]!, "Old")[0]!, blocks(changed[0]!, "New")[0]!];
  for (const k of newKeys) expect(now).toContain(`SEG-${k}`);
  for (const k of oldKeys) expect(before).toContain(`SEG-${k}`);

  // The same request again: nothing written; another request naming the quote: quote_already_used.
  const replay = await count(() => accept(order.orderId, offer.quoteId, [{ card: "tok_approve_visa", minor: dueMinor }]));
  expect(replay.result.status).toBe(200);
  expect(replay.gateway + replay.psp).toBe(0);
  const other = await accept(order.orderId, offer.quoteId, [{ card: "tok_approve_visa", minor: dueMinor }], "trx-2");
  expect([other.status, errorCode(other.body)]).toEqual([409, "quote_already_used"]);
}, 60_000);

test("a cheaper combination is refunded once, newest leg first (3 gateway writes, 1 PSP refund), the fees of both directions kept", async () => {
  // In JPY the band's fee is the bare 25 per direction, so an earlier outbound day makes the whole change cheaper.
  const order = await bookedReturn("JPY", 2);
  const q = await quoteBoth(order, ["2027-01-06", BACK_DAY]);
  expect(q.fee).toBe("50");
  const offer = q.offers[0]!;
  const refundMinor = -minorOf(offer.due, "JPY");
  expect(refundMinor).toBeGreaterThan(0);
  const each = directionDues(offer.desc, "JPY");
  expect(each[0]! + each[1]!).toBe(-refundMinor);
  expect(offer.desc.at(-1)).toBe(`Refunded: ${refundMinor} JPY.`);

  const count = <T>(fn: () => Promise<T>) => countWrites(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
  const first = await count(() => accept(order.orderId, offer.quoteId, []));
  expect(first.result.status).toBe(200);
  expect(first.gateway).toBe(3);
  expect(first.psp).toBe(1);
  const after = await get(order.orderId);
  expect(after.history.slice(order.history.length).map((h) => h.kind)).toEqual(["flights_changed", "refunded"]);
  expect(after.journeys[0]!.flightKeys.every((k) => k.endsWith("2027-01-06"))).toBe(true);
  expect(after.journeys[1]!.flightKeys.every((k) => k.endsWith(BACK_DAY))).toBe(true);
  expect(after.totalMinor).toBe(order.totalMinor - refundMinor);
  const [older, newer] = [...(await t.gw.orders.ctx.payments.ledger.legs(order.orderId))].sort((a, b) => a.seq - b.seq);
  expect([older!.refunded, newer!.refunded]).toEqual([0, refundMinor]);
}, 60_000);

test("a combination quoted before another change is stale (offer_expired, nothing taken); a forged combination id is offer_not_found", async () => {
  const order = await bookedReturn();
  const both = (await quoteBoth(order, [OUT_DAY, BACK_DAY])).offers[0]!;
  const [out] = directionsOf(t, order);
  const one = (await flightQuote(t, reshopFlightRQ(order.orderId, flightItems(order), { ...out!, date: OUT_DAY }))).offers[0]!;
  expect((await accept(order.orderId, one.quoteId, [{ card: "tok_approve_visa", minor: minorOf(one.due, "EUR") }], "trx-one")).status).toBe(200);
  const changed = await get(order.orderId);
  const stale = await accept(order.orderId, both.quoteId, [{ card: "tok_approve_visa", minor: minorOf(both.due, "EUR") }], "trx-both");
  expect([stale.status, errorCode(stale.body)]).toEqual([410, "offer_expired"]);
  const forged = both.quoteId.replace(/\.(\d+)\.(\d+)\.([^.]+)$/, (_m, due, exp, mac) => `.${Number(due) - 100}.${exp}.${mac}`);
  expect(forged).not.toBe(both.quoteId);
  const refused = await accept(order.orderId, forged, [{ card: "tok_approve_visa", minor: minorOf(both.due, "EUR") - 100 }], "trx-forged");
  expect([refused.status, errorCode(refused.body)]).toEqual([404, "offer_not_found"]);
  const after = await get(order.orderId);
  expect([after.version, after.legs.length]).toEqual([changed.version, changed.legs.length]);
}, BOOKING_TEST_MS);

test("each direction is judged as alone: a SAVER return (no change allowed) is fare_not_changeable for the pair, nothing quoted", async () => {
  const b = await bookBrand(t, "SAVER", { back: true });
  const order = await t.gw.orders.retrieve(b.orderId, sellerOf(t));
  const [out, back] = directionsOf(t, order);
  const r = await t.ndc("OrderReshopRQ", reshopFlightsRQ(order.orderId, flightItems(order), [{ ...out!, date: OUT_DAY }, { ...back!, date: BACK_DAY }]));
  expect([r.status, errorCode(r.body)]).toEqual([409, "fare_not_changeable"]);
});

test("one direction named twice is request_invalid; a one-direction reshop of a return still answers the alternatives of that direction alone", async () => {
  const order = await bookedReturn();
  const [out] = directionsOf(t, order);
  const twice = await t.ndc("OrderReshopRQ", reshopFlightsRQ(order.orderId, flightItems(order), [{ ...out!, date: OUT_DAY }, { ...out!, date: "2027-01-14" }]));
  expect([twice.status, errorCode(twice.body)]).toEqual([400, "request_invalid"]);
  const one = await flightQuote(t, reshopFlightRQ(order.orderId, flightItems(order), { ...out!, date: OUT_DAY }));
  expect(one.fee).toBe("25.00");
  for (const o of one.offers) {
    expect(o.quoteId.split(".").length).toBe(8);
    expect(o.desc.filter((d) => d.startsWith("Flights:")).length).toBe(1);
  }
});

test("revenue accounting (ACCSTS) is told EXCHANGED for the services of both replaced directions, in one report", async () => {
  const rx = startReceiver();
  try {
    const { token } = await sellerWithToken(t, "AGY-FCD", "99999993", "ndc:notif:subscribe ndc:accounting");
    expect((await call(t, "POST", "/notifications/subscriptions", token, { url: rx.url, events: ["accounting.service_status"] })).status).toBe(201);
    const order = await bookedReturn();
    const q = await quoteBoth(order, [OUT_DAY, BACK_DAY]);
    const offer = q.offers[0]!;
    expect((await accept(order.orderId, offer.quoteId, [{ card: "tok_approve_visa", minor: minorOf(offer.due, "EUR") }])).status).toBe(200);
    await t.gw.notifications.dispatcher.tick();
    const reports = rx.requests.filter((r) => r.body.includes(`<cns:OrderID>${order.orderId}</cns:OrderID>`)).map((r) => r.body);
    expect(reports.length).toBe(1);
    assertSchemaValid(reports[0]!, "IATA_OrderSalesInformationNotifRQ.xsd");
    const services = blocks(reports[0]!, "Service");
    expect(services.length).toBeGreaterThan(0);
    for (const s of services) expect(all(s, "StatusCode").at(-1)).toBe("EXCHANGED");
    // Both old directions' segments are reported, none of the new.
    const segments = new Set(services.flatMap((s) => all(s, "PaxSegmentRefID")));
    expect([...segments].sort()).toEqual(order.journeys.flatMap((j) => j.flightKeys.map((k) => `SEG-${k}`)).sort());
  } finally {
    rx.stop();
  }
}, 60_000);
