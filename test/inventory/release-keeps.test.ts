import { afterAll, beforeAll, expect, test } from "bun:test";
import { askTogether } from "@ndc/actors";
import { ManualClock } from "@ndc/clock";
import { boot, FLIGHT, freeSeats, liveSeatRows, settle, tempDir, testSupply, type Booted } from "./helpers";

/**
 * The seat actor's `release` with `keeps` (one seat of a shared hold cancelled) and `confirm`
 * with `releases` + `keeps` (one seat of it changed): in one decision, one write, the freed seat
 * is free to every channel and the kept seats stay sold under their new hold; a repeat changes
 * nothing; a keep that is not a proper part of the hold is refused with nothing written.
 */
const tmp = tempDir("ndc-keeps-");
const clock = new ManualClock();
let b: Booted;
const free = freeSeats(testSupply());
let next = 0;
const seat = () => free[next++]!;
const HOUR = 3_600_000;

beforeAll(async () => {
  b = await boot(tmp.url, { clock });
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

async function soldTogether(seats: string[], holdId: string) {
  await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: seats, holder: "ORD-K", expiresAt: clock.now() + HOUR, holdId });
  await b.ndc.confirmSeats(FLIGHT, holdId);
}
const live = async (s: string) => (await liveSeatRows(b.store, FLIGHT, s)).map((r) => [r.hold_id, r.status]);

test("release keeping the others: the released seat free at once to the web shop, the kept ones sold under their new hold; a repeat changes nothing", async () => {
  const [a, c, d] = [seat(), seat(), seat()];
  await soldTogether([a, c, d], "H-SHARED");
  const release = () => askTogether(b.store, b.clock, [b.service.joint.releaseSeats(FLIGHT, "H-SHARED", { holdId: "H-KEPT", seatIds: [c, d] })], async () => {});
  await release();
  expect(await live(a)).toEqual([]);
  expect(await live(c)).toEqual([["H-KEPT", "sold"]]);
  expect(await live(d)).toEqual([["H-KEPT", "sold"]]);
  expect((await settle([b.webShop.sellSeat(FLIGHT, c)])).codes).toEqual(["seat_unavailable"]);
  expect((await b.webShop.sellSeat(FLIGHT, a)).status).toBe("sold");
  await release();
  expect(await live(c)).toEqual([["H-KEPT", "sold"]]);
  // The kept hold is an ordinary sale: released whole later (the order cancelled).
  await b.service.releaseSeats(FLIGHT, "H-KEPT");
  expect(await live(c)).toEqual([]);
});

test("confirm a new seat, releasing one of a shared hold and keeping the other, in one decision", async () => {
  const [a, c, n] = [seat(), seat(), seat()];
  await soldTogether([a, c], "H-PAIR");
  await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [n], holder: "ORD-K", expiresAt: clock.now() + HOUR, holdId: "H-NEW" });
  await askTogether(b.store, b.clock, [b.service.joint.confirmSeats(FLIGHT, "H-NEW", "H-PAIR", { holdId: "H-PAIR-KEPT", seatIds: [c] })], async () => {});
  expect(await live(n)).toEqual([["H-NEW", "sold"]]);
  expect(await live(a)).toEqual([]);
  expect(await live(c)).toEqual([["H-PAIR-KEPT", "sold"]]);
});

test("keeping every seat, a seat not in the hold, or a used hold id is refused, nothing written", async () => {
  const [a, c, x] = [seat(), seat(), seat()];
  await soldTogether([a, c], "H-REF");
  for (const keeps of [{ holdId: "H-K1", seatIds: [a, c] }, { holdId: "H-K2", seatIds: [x] }, { holdId: "H-K3", seatIds: [] }, { holdId: "H-REF", seatIds: [c] }]) {
    const r = await settle([askTogether(b.store, b.clock, [b.service.joint.releaseSeats(FLIGHT, "H-REF", keeps)], async () => {})]);
    expect(r.codes).toEqual(["request_invalid"]);
  }
  expect(await live(a)).toEqual([["H-REF", "sold"]]);
  expect(await live(c)).toEqual([["H-REF", "sold"]]);
});
