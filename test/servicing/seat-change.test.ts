import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { errorCode, type NdcReply } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { countWrites as count } from "../support/count-writes";
import { ndcAs, otherSeller } from "../orders-http/helpers";
import { book, card, FARE_MINOR, start, type Ctx } from "../orders-http/order-list-helpers";
import { addRQ, seatsFor, type ListedItem, type Ndc } from "./add-helpers";

/**
 * Issue 9 item 2: a seat already held is changed with OrderChangeRQ (SelectedSeat, one seat for
 * one passenger on one flight). The seat actor sells the new seat and frees the old one in ONE
 * decision of the change's commit write, so the old seat is back for every channel exactly when
 * the new one is taken. Then two sellers race for the freed seat, 200 requests at once: it is
 * sold once, and every loser leaves nothing held or authorised.
 */
const ATTEMPTS = 200;
let c: Ctx;
let other: Ndc;
let rivalHeaders: Record<string, string>;
beforeAll(async () => {
  c = await start();
  rivalHeaders = await otherSeller(c.t, "AGY-RIVAL");
  other = { ndc: (message, body) => ndcAs(c.t, rivalHeaders, message, body) };
});

/** The race's requests unchecked (200 synchronous xmllint runs would serialise them); a sample is checked after. */
async function unchecked(headers: Record<string, string> | undefined, body: string): Promise<NdcReply> {
  const auth = headers ?? { "x-api-key": c.t.gw.sandbox!.api_key };
  const res = await c.t.fetch("/24.4/OrderChangeRQ", { method: "POST", headers: { "content-type": "application/xml", "iata-message-name": "IATA_OrderChangeRQ", ...auth }, body });
  return { status: res.status, headers: res.headers, body: await res.text() };
}
afterAll(() => c.t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(c.t.gw.store, c.t.gw.orders.ctx.payments.psp, fn);
const priced = (seats: Map<string, ListedItem>) => [...seats].filter(([, i]) => i.unitMinor > 0);

async function liveRows(flightKey: string, seatId: string): Promise<{ holder: string; status: string }[]> {
  return c.t.gw.store.db.all(sql`SELECT holder, status FROM seat_inventory WHERE flight_key = ${flightKey} AND seat_id = ${seatId} AND status IN ('held', 'sold')`);
}

test("a seat changed: the new one sold and the old one freed in the same write; then 200 requests of two sellers for the freed seat sell it once", async () => {
  const mine = await book(c, { tag: "SC1", payment: [card(FARE_MINOR)] });
  const flightKey = mine.journeys[0]!.flightKeys[0]!;
  const map = await seatsFor(c.t, mine.orderId);
  const [[s1, i1], [s2, i2]] = priced(map.seats);
  const bought = await c.t.ndc("OrderChangeRQ", addRQ(mine.orderId, map.offerId, [{ offerItemId: i1!.offerItemId, paxId: "PAX1", seat: s1! }], [{ card: "tok_approve_visa", minor: i1!.unitMinor }], { correlationId: "SC-1" }));
  expect(bought.status).toBe(200);
  expect(await liveRows(flightKey, s1!)).toEqual([{ holder: mine.orderId, status: "sold" }]);

  // The change: one write sells s2 and frees s1 (with the order's items and the leg's answer).
  const changed = await countWrites(() => c.t.ndc("OrderChangeRQ", addRQ(mine.orderId, map.offerId, [{ offerItemId: i2!.offerItemId, paxId: "PAX1", seat: s2! }], [{ card: "tok_approve_visa", minor: i2!.unitMinor }], { correlationId: "SC-2" })));
  expect(changed.result.status).toBe(200);
  expect(changed.gateway).toBe(3);
  expect(await liveRows(flightKey, s1!)).toEqual([]);
  expect(await liveRows(flightKey, s2!)).toEqual([{ holder: mine.orderId, status: "sold" }]);
  const after = await c.t.gw.orders.retrieve(mine.orderId, c.seller);
  expect(after.items.filter((i) => i.kind === "seat").map((i) => i.ref)).toEqual([s2]);
  expect(after.seatHolds.flatMap((h) => h.seatIds)).toEqual([s2]);
  expect(after.history.at(-2)?.kind).toBe("items_added");

  // Two sellers' orders on the same flight race for s1, now free for every channel.
  const theirs = await book(c, { tag: "SC2", seller: { clientId: "rival", agencyId: "AGY-RIVAL" }, payment: [card(FARE_MINOR)] });
  const another = await book(c, { tag: "SC3", payment: [card(FARE_MINOR)] });
  expect(theirs.journeys[0]!.flightKeys[0]).toBe(flightKey);
  const racers = [
    { headers: rivalHeaders as Record<string, string> | undefined, order: theirs, map: await seatsFor(other, theirs.orderId) },
    { headers: undefined, order: another, map: await seatsFor(c.t, another.orderId) },
  ];
  for (const r of racers) expect(r.map.seats.has(s1!)).toBe(true);
  const outcomes = await Promise.all(
    Array.from({ length: ATTEMPTS }, (_, i) => {
      const r = racers[i % 2]!;
      const item = r.map.seats.get(s1!)!;
      return unchecked(r.headers, addRQ(r.order.orderId, r.map.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: s1! }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { correlationId: `RACE-${i}` }));
    }),
  );
  const won = outcomes.filter((o) => o.status === 200);
  expect(won).toHaveLength(1);
  assertSchemaValid(won[0]!.body);
  assertSchemaValid(outcomes.find((o) => o.status !== 200)!.body);
  // Losers: the seat taken (seat_unavailable), or the winner's own later tries (its passenger holds it already).
  for (const o of outcomes.filter((x) => x.status !== 200)) expect(["seat_unavailable", "request_invalid", "request_in_progress"]).toContain(errorCode(o.body)!);
  const rows = await liveRows(flightKey, s1!);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.status).toBe("sold");
  const winner = racers.find((r) => r.order.orderId === rows[0]!.holder)!;
  expect(winner).toBeDefined();
  // Nothing authorised is left behind by any loser; the winner's change is captured once.
  for (const r of racers) {
    const legs = await c.t.gw.orders.ctx.payments.ledger.legs(r.order.orderId);
    expect(legs.filter((l) => l.state === "authorised" || l.state === "authorising")).toEqual([]);
    expect(legs.filter((l) => l.state === "captured" && l.changeRef !== "sale")).toHaveLength(r === winner ? 1 : 0);
  }
}, 120_000);
