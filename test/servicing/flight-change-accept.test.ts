import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { countWrites } from "../support/count-writes";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { orderHistoryRQ } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { bookCancellable } from "./cancel-helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { dayAfter, T0 } from "../support/dates";

/**
 * Accepting a flight-change quote over HTTP (decision 0016, issue 9 item 3): the `FCQ.` id named
 * in OrderChangeRQ AcceptSelectedQuotedOfferList/SelectedPricedOffer is checked (forged, expired,
 * stale refused with the catalogue's codes), then the direction's flights are replaced and the
 * amount due is charged to the card (servicing/flight/saga.ts). Every answer is XSD-checked by t.ndc.
 */
let t: TestGateway;
// Each test books over HTTP: an explicit budget, so a loaded machine does not fail it on Bun's 5 s default.
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
}, 30_000);
afterAll(() => t.close());

const accept = (orderId: string, quoteId: string, minor = 3000, trxId = "trx-1") =>
  t.ndc("OrderChangeRQ", addRQ(orderId, quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], minor > 0 ? [{ card: "tok_approve_visa", minor }] : [], { correlationId: `fc-${orderId}`, trxId }));

async function quoted(ref: string, date = dayAfter(T0, 53)) {
  const { order } = await bookCancellable(t, ref, { brand: "CLASSIC" });
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date }));
  const o = q.offers[0]!;
  return { order, quoteId: o.quoteId, dueMinor: Math.round(Number(o.due) * 100), out };
}

test("a dearer change paid by card: the outbound's flights replaced, the due captured; a replay writes nothing; another request is quote_already_used", async () => {
  const { order, quoteId, dueMinor } = await quoted("FA1");
  expect(dueMinor).toBe(3000);
  const r = await accept(order.orderId, quoteId, dueMinor);
  expect(r.status).toBe(200);
  const after = (await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!;
  expect(after.version).toBe(order.version + 2); // flights_changed, then payment_captured
  const [newKeys, oldKeys] = [after.journeys[0]!.flightKeys, order.journeys[0]!.flightKeys];
  expect(newKeys).not.toEqual(oldKeys);
  expect(newKeys.every((k) => k.endsWith(dayAfter(T0, 53)))).toBe(true);
  expect(after.journeys.slice(1)).toEqual(order.journeys.slice(1));
  expect(after.totalMinor).toBe(order.totalMinor + dueMinor);
  const legs = after.legs.filter((l) => !order.legs.some((o) => o.legId === l.legId));
  expect(legs.map((l) => [l.amountMinor, l.state])).toEqual([[dueMinor, "captured"]]);
  // OrderRetrieveRS and OrderHistoryRS show the new flights.
  const seg = (key: string) => t.gw.supply.flight(key)!;
  const retrieved = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(order.orderId));
  for (const k of newKeys) expect(retrieved.body).toContain(`<cns:PaxSegmentID>SEG-${k}</cns:PaxSegmentID>`);
  for (const k of oldKeys) expect(retrieved.body).not.toContain(`SEG-${k}`);
  expect(seg(newKeys[0]!).date).toBe(dayAfter(T0, 53));
  // The seat moved with its flight (same seat id): sold on the new flight, and back for every channel on the old one, once.
  const seatHolds = order.seatHolds.filter((h) => oldKeys.includes(h.flightKey));
  expect(seatHolds.length).toBeGreaterThan(0);
  expect(after.seatHolds.filter((h) => newKeys.includes(h.flightKey)).map((h) => h.seatIds)).toEqual(seatHolds.map((h) => h.seatIds));
  expect(after.seatHolds.some((h) => oldKeys.includes(h.flightKey))).toBe(false);
  const inventory = t.gw.orders.ctx.inventory;
  const old = seatHolds[0]!;
  await inventory.sellSeats({ flightKey: old.flightKey, seatIds: old.seatIds, holder: "web-buyer", channel: "web_shop" });
  await expect(inventory.sellSeats({ flightKey: old.flightKey, seatIds: old.seatIds, holder: "ndc-buyer", channel: "ndc" })).rejects.toMatchObject({ code: "seat_unavailable" });
  const moved = after.seatHolds.find((h) => newKeys.includes(h.flightKey))!;
  await expect(inventory.sellSeats({ flightKey: moved.flightKey, seatIds: moved.seatIds, holder: "web-buyer", channel: "web_shop" })).rejects.toMatchObject({ code: "seat_unavailable" });
  const history = await t.ndc("OrderHistoryRQ", orderHistoryRQ(order.orderId));
  expect(history.body).toContain("FLIGHTS_CHANGED");
  // The same request again: the same order, nothing written.
  const again = await accept(order.orderId, quoteId, dueMinor);
  expect(again.status).toBe(200);
  expect((await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!.version).toBe(after.version);
  // The quote is spent: another request naming it is refused.
  const other = await accept(order.orderId, quoteId, dueMinor, "trx-2");
  expect(other.status).toBe(409);
  expect(errorCode(other.body)).toBe("quote_already_used");
}, 30_000);

test("durable writes: open, commit, close (3 gateway writes, the PSP's authorise and capture 2); the replay none", async () => {
  const { order, quoteId, dueMinor } = await quoted("FA6");
  const count = <T>(fn: () => Promise<T>) => countWrites(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
  const first = await count(() => accept(order.orderId, quoteId, dueMinor));
  expect(first.result.status).toBe(200);
  expect(first.gateway).toBe(3);
  expect(first.psp).toBe(2);
  const replay = await count(() => accept(order.orderId, quoteId, dueMinor));
  expect(replay.result.status).toBe(200);
  expect(replay.gateway + replay.psp).toBe(0);
}, 30_000);

test("the legs must pay the due exactly (nothing written); a decline changes nothing and its voided quote is not reused", async () => {
  // Another day than the other tests' (their moved seats would take this order's seat id there).
  const { order, quoteId, dueMinor } = await quoted("FA5", dayAfter(T0, 46));
  const wrong = await accept(order.orderId, quoteId, dueMinor - 100);
  expect(errorCode(wrong.body)).toBe("payment_legs_invalid");
  expect((await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!.version).toBe(order.version);
  const declined = await t.ndc("OrderChangeRQ", addRQ(order.orderId, quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_decline_visa", minor: dueMinor }], { correlationId: `fc-${order.orderId}`, trxId: "trx-d" }));
  expect(errorCode(declined.body)).toMatch(/declin/);
  // No seat is left held on that day's flights (the change's hold on the new flight was freed).
  const ends = order.journeys[0]!.flightKeys.map((k) => t.gw.supply.flight(k)!);
  const keys = t.gw.supply.journeys(ends[0]!.origin, ends.at(-1)!.destination, dayAfter(T0, 46)).flatMap((j) => j.segments.map((x) => x.key));
  expect(keys.length).toBeGreaterThan(0);
  for (const k of keys) expect((await t.gw.orders.ctx.inventory.seatAvailability(k)).seats.filter((x) => x.status === "held")).toEqual([]);
  const still = (await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!;
  expect(still.journeys).toEqual(order.journeys);
  expect(still.version).toBe(order.version);
  const retry = await accept(order.orderId, quoteId, dueMinor, "trx-d2");
  expect(errorCode(retry.body)).toBe("quote_already_used");
}, 30_000);

test("a forged id, or one given for another order, is offer_not_found", async () => {
  const { order, quoteId } = await quoted("FA2");
  const other = await quoted("FA3");
  const forged = quoteId.replace(/\.(\d+)\.(\d+)\.([^.]+)$/, (_m, due, exp, mac) => `.${Number(due) - 100}.${exp}.${mac}`);
  expect(forged).not.toBe(quoteId);
  for (const id of [forged, other.quoteId, "FCQ.x"]) {
    const r = await accept(order.orderId, id);
    expect(r.status).toBe(404);
    expect(errorCode(r.body)).toBe("offer_not_found");
  }
}, 30_000);

test("a quote past its 15 minutes is offer_expired; one given before the order changed is offer_expired (stale)", async () => {
  const { order, quoteId } = await quoted("FA4");
  const now = clock.now();
  try {
    clock.set(now + 15 * 60_000 + 1000);
    const late = await accept(order.orderId, quoteId);
    expect(late.status).toBe(410);
    expect(errorCode(late.body)).toBe("offer_expired");
    expect(late.body).toContain("expired");
  } finally {
    clock.set(now);
  }
  // The order changes (an extra bought): the quote's version no longer matches.
  const listed = await extrasFor(t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const bought = await t.ndc("OrderChangeRQ", addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: order.passengers[0]!.paxId }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
  expect(bought.status).toBe(200);
  const stale = await accept(order.orderId, quoteId);
  expect(stale.status).toBe(410);
  expect(errorCode(stale.body)).toBe("offer_expired");
  expect(stale.body).toContain("The order changed after the flight-change quote was given");
}, 30_000);
