import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ManualClock } from "@ndc/clock";
import { boot, FLIGHT, freeSeats, liveSeatRows, occupiedSeats, settle, tempDir, testSupply, type Booted } from "./helpers";

/** Holds carry an expiry (DESIGN 4); time is a ManualClock moved by the test. */
const tmp = tempDir();
const clock = new ManualClock();
let b: Booted;
const free = freeSeats(testSupply());
const MIN = 60_000;
let next = 0;
const seat = () => free[next++]!;

async function rowStatus(holdId: string): Promise<string[]> {
  const rows = (await b.store.db.all(sql`SELECT status FROM seat_inventory WHERE hold_id = ${holdId}`)) as { status: string }[];
  return rows.map((r) => r.status);
}

beforeAll(async () => {
  b = await boot(tmp.url, { clock });
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

describe("hold expiry", () => {
  test("a lapsed NDC hold releases the seat to the web shop, and its confirm is refused", async () => {
    const s = seat();
    const hold = await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [s], holder: "ORD-1", expiresAt: clock.now() + 15 * MIN });
    expect(hold.status).toBe("held");
    expect((await settle([b.webShop.sellSeat(FLIGHT, s)])).codes).toEqual(["seat_unavailable"]);
    clock.advance(15 * MIN - 1);
    expect((await settle([b.webShop.sellSeat(FLIGHT, s)])).codes).toEqual(["seat_unavailable"]);
    clock.advance(1);
    const sale = await b.webShop.sellSeat(FLIGHT, s);
    expect(sale.status).toBe("sold");
    expect(await rowStatus(hold.holdId)).toEqual(["expired"]);
    expect((await settle([b.ndc.confirmSeats(FLIGHT, hold.holdId)])).codes).toEqual(["seat_hold_expired"]);
    expect((await liveSeatRows(b.store, FLIGHT, s)).map((r) => r.hold_id)).toEqual([sale.holdId]);
  });

  test("confirm after expiry is refused and frees the seat at once, before any sweep", async () => {
    const s = seat();
    const hold = await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [s], holder: "ORD-2", expiresAt: clock.now() + MIN });
    clock.advance(MIN);
    expect((await settle([b.ndc.confirmSeats(FLIGHT, hold.holdId)])).codes).toEqual(["seat_hold_expired"]);
    expect(await rowStatus(hold.holdId)).toEqual(["expired"]);
    // And stays refused.
    expect((await settle([b.ndc.confirmSeats(FLIGHT, hold.holdId)])).codes).toEqual(["seat_hold_expired"]);
    expect((await b.service.seatAvailability(FLIGHT)).seats.find((x) => x.seatId === s)?.status).toBe("available");
  });

  test("the sweep expires lapsed holds of actors not in memory, found through the store", async () => {
    const s1 = seat();
    const s2 = seat();
    const h1 = await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [s1, s2], holder: "ORD-3", expiresAt: clock.now() + 5 * MIN });
    const h2 = await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [seat()], holder: "ORD-4", expiresAt: clock.now() + 30 * MIN });
    clock.advance(5 * MIN); // longer than the actors' idleMs (1 min): evicted by the sweep
    expect(b.system.evictIdle()).toBeGreaterThan(0);
    expect(b.system.size).toBe(0);
    expect(await b.service.expireDue()).toEqual({ seatHolds: 1, partnerHolds: 0 });
    expect(await rowStatus(h1.holdId)).toEqual(["expired", "expired"]);
    expect(await rowStatus(h2.holdId)).toEqual(["held"]);
    expect(await b.service.expireDue()).toEqual({ seatHolds: 0, partnerHolds: 0 });
    expect((await settle([b.ndc.confirmSeats(FLIGHT, h1.holdId)])).codes).toEqual(["seat_hold_expired"]);
    expect((await b.ndc.confirmSeats(FLIGHT, h2.holdId)).status).toBe("sold");
  });

  test("a confirmed seat does not expire", async () => {
    const s = seat();
    const hold = await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [s], holder: "ORD-5", expiresAt: clock.now() + MIN });
    await b.ndc.confirmSeats(FLIGHT, hold.holdId);
    clock.advance(60 * MIN);
    expect(await b.service.expireSeatHolds(FLIGHT)).not.toContain(hold.holdId);
    expect((await settle([b.webShop.sellSeat(FLIGHT, s)])).codes).toEqual(["seat_unavailable"]);
    expect(await rowStatus(hold.holdId)).toEqual(["sold"]);
  });
});

describe("holds, confirms and releases", () => {
  test("a hold is all or nothing", async () => {
    const s1 = seat();
    const s2 = seat();
    await b.webShop.sellSeat(FLIGHT, s2);
    expect((await settle([b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [s1, s2], holder: "ORD-6" })])).codes).toEqual(["seat_unavailable"]);
    expect(await liveSeatRows(b.store, FLIGHT, s1)).toEqual([]);
    expect((await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [s1], holder: "ORD-6" })).seatIds).toEqual([s1]);
  });

  test("seats the simulator shows occupied are sold by other channels", async () => {
    const taken = occupiedSeats(b.supply)[0]!;
    expect((await settle([b.webShop.sellSeat(FLIGHT, taken), b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [taken], holder: "ORD-7" })])).codes).toEqual([
      "seat_unavailable",
      "seat_unavailable",
    ]);
    expect((await b.service.seatAvailability(FLIGHT)).seats.find((x) => x.seatId === taken)?.status).toBe("occupied");
  });

  test("release frees a hold or a sale; repeating it changes nothing", async () => {
    const s = seat();
    const hold = await b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [s], holder: "ORD-8" });
    expect((await b.ndc.releaseSeats(FLIGHT, hold.holdId)).status).toBe("released");
    expect((await b.ndc.releaseSeats(FLIGHT, hold.holdId)).status).toBe("released");
    expect((await settle([b.ndc.confirmSeats(FLIGHT, hold.holdId)])).codes).toEqual(["seat_hold_not_found"]);
    const sale = await b.webShop.sellSeat(FLIGHT, s);
    expect((await b.webShop.refundSeat(FLIGHT, sale.holdId)).status).toBe("released");
    expect(await liveSeatRows(b.store, FLIGHT, s)).toEqual([]);
    expect(await rowStatus(sale.holdId)).toEqual(["released"]);
  });

  test("a retried hold with the caller's id is answered from the record, not taken twice", async () => {
    const s = seat();
    const req = { flightKey: FLIGHT, seatIds: [s], holder: "ORD-9", holdId: "SH-ORD-9-1" };
    const first = await b.ndc.holdSeats(req);
    const again = await b.ndc.holdSeats(req);
    expect(again).toEqual(first);
    expect((await settle([b.ndc.holdSeats({ ...req, seatIds: [seat()] })])).codes).toEqual(["request_invalid"]);
    await b.ndc.confirmSeats(FLIGHT, first.holdId);
    expect((await b.ndc.confirmSeats(FLIGHT, first.holdId)).status).toBe("sold");
    expect(await liveSeatRows(b.store, FLIGHT, s)).toHaveLength(1);
  });

  test("unknown seats, flights and holds, and malformed holds, are refused", async () => {
    const codes = await settle<unknown>([
      b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: ["99Z"], holder: "ORD-10" }),
      b.ndc.holdSeats({ flightKey: "XB-9999-2026-11-22", seatIds: ["1A"], holder: "ORD-10" }),
      b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [], holder: "ORD-10" }),
      b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [free[100]!, free[100]!], holder: "ORD-10" }),
      b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [free[100]!], holder: "ORD-10", expiresAt: clock.now() }),
      b.ndc.confirmSeats(FLIGHT, "SH-none"),
      b.service.seatAvailability("XB-9999-2026-11-22"),
    ]);
    expect(codes.codes).toEqual([
      "seat_not_found",
      "flight_not_found",
      "request_invalid",
      "request_invalid",
      "request_invalid",
      "seat_hold_not_found",
      "flight_not_found",
    ]);
  });

  test("availability counts every seat once", async () => {
    const a = await b.service.seatAvailability(FLIGHT);
    const total = Object.values(a.counts).reduce((x, y) => x + y, 0);
    expect(total).toBe(a.seats.length);
    expect(a.counts.occupied).toBe(occupiedSeats(b.supply).length);
    expect(a.counts.sold + a.counts.held).toBe((await liveSeatRows(b.store, FLIGHT)).length);
  });
});
