import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { ManualClock } from "@ndc/clock";
import { isGatewayError } from "@ndc/errors";
import type { Channel } from "@ndc/inventory";
import { boot, FLIGHT, freeSeats, liveSeatRows, tempDir, testSupply, type Booted } from "./helpers";

/**
 * Random interleavings of hold, sell, confirm, release, expire, clock moves and restarts
 * across both channels, fired in concurrent batches: no seat is ever sold twice, the store
 * and the actor agree, and partner stock is never exceeded nor taken twice by one order.
 */
const SEATS = freeSeats(testSupply()).slice(0, 4);
const PRODUCT = "PP-HOTEL-SIN"; // 3 units
const STOCK = 3;
const ORDERS = ["O1", "O2", "O3", "O4", "O5"];
const MIN = 60_000;
const tmp = tempDir("ndc-inventory-prop-");
afterAll(() => tmp.cleanup());

const channel = fc.constantFrom<Channel>("ndc", "web_shop");
const command = fc.oneof(
  fc.record({ t: fc.constant("hold" as const), channel, seats: fc.subarray(SEATS, { minLength: 1, maxLength: 2 }), ttl: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ t: fc.constant("sell" as const), channel, seats: fc.subarray(SEATS, { minLength: 1, maxLength: 2 }) }),
  fc.record({ t: fc.constant("confirm" as const), i: fc.nat() }),
  fc.record({ t: fc.constant("release" as const), i: fc.nat() }),
  fc.record({ t: fc.constant("expire" as const) }),
  fc.record({ t: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 3 * MIN }) }),
  fc.record({ t: fc.constantFrom("pHold" as const, "pSell" as const), channel, order: fc.constantFrom(...ORDERS), ttl: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ t: fc.constantFrom("pConfirm" as const, "pRelease" as const), i: fc.nat() }),
  fc.record({ t: fc.constant("pExpire" as const) }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;
const batches = fc.array(fc.array(command, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 10 });
const restarts = fc.array(fc.boolean(), { minLength: 10, maxLength: 10 });

/** What the test was told: each acknowledged sale, in the order the actor answered. */
class Model {
  seatHolds: string[] = [];
  partnerHolds: string[] = [];
  /** seat -> the hold it was acknowledged sold under, until a release of that hold is acknowledged. */
  sold = new Map<string, string>();
  /** order -> live partner hold acknowledged. */
  soldUnits = new Map<string, string>();

  seatSold(holdId: string, seats: string[]): void {
    for (const s of seats) {
      const other = this.sold.get(s);
      if (other !== undefined && other !== holdId) throw new Error(`seat ${s} sold twice: ${other} and ${holdId}`);
      this.sold.set(s, holdId);
    }
  }

  seatReleased(holdId: string, seats: string[]): void {
    for (const s of seats) if (this.sold.get(s) === holdId) this.sold.delete(s);
  }
}

async function run(b: Booted, clock: ManualClock, c: Command, m: Model): Promise<void> {
  const pick = (list: string[], i: number) => list[i % Math.max(list.length, 1)] ?? "missing";
  switch (c.t) {
    case "hold": {
      const h = await b.service.holdSeats({ flightKey: FLIGHT, seatIds: c.seats, holder: `h-${c.channel}`, channel: c.channel, expiresAt: clock.now() + c.ttl * MIN });
      m.seatHolds.push(h.holdId);
      return;
    }
    case "sell": {
      const h = await b.service.sellSeats({ flightKey: FLIGHT, seatIds: c.seats, holder: `s-${c.channel}`, channel: c.channel });
      m.seatHolds.push(h.holdId);
      m.seatSold(h.holdId, h.seatIds);
      return;
    }
    case "confirm": {
      const h = await b.service.confirmSeats(FLIGHT, pick(m.seatHolds, c.i));
      m.seatSold(h.holdId, h.seatIds);
      return;
    }
    case "release": {
      const h = await b.service.releaseSeats(FLIGHT, pick(m.seatHolds, c.i));
      m.seatReleased(h.holdId, h.seatIds);
      return;
    }
    case "expire":
      await b.service.expireSeatHolds(FLIGHT);
      return;
    case "advance":
      clock.advance(c.ms);
      return;
    case "pHold":
    case "pSell": {
      const req = { productCode: PRODUCT, orderId: c.order, channel: c.channel, expiresAt: clock.now() + c.ttl * MIN };
      const h = c.t === "pHold" ? await b.service.holdPartnerProduct(req) : await b.service.sellPartnerProduct(req);
      m.partnerHolds.push(h.holdId);
      return;
    }
    case "pConfirm":
      await b.service.confirmPartnerProduct(PRODUCT, pick(m.partnerHolds, c.i));
      return;
    case "pRelease":
      await b.service.releasePartnerProduct(PRODUCT, pick(m.partnerHolds, c.i));
      return;
    case "pExpire":
      await b.service.expirePartnerHolds(PRODUCT);
      return;
  }
}

async function checkInvariants(b: Booted, m: Model): Promise<void> {
  const rows = await liveSeatRows(b.store, FLIGHT);
  const bySeat = new Map<string, number>();
  for (const r of rows) bySeat.set(r.seat_id, (bySeat.get(r.seat_id) ?? 0) + 1);
  expect([...bySeat.values()].every((n) => n === 1)).toBe(true);
  const seats = (await b.service.seatAvailability(FLIGHT)).seats.filter((s) => SEATS.includes(s.seatId));
  for (const s of seats) {
    const row = rows.find((r) => r.seat_id === s.seatId);
    // Sold in memory is sold in the store; an acknowledged sale is still sold unless released.
    if (s.status === "sold") expect(row?.status).toBe("sold");
    if (m.sold.has(s.seatId)) {
      expect(s.status).toBe("sold");
      expect(row?.hold_id).toBe(m.sold.get(s.seatId)!);
    }
  }
  const units = (await b.store.db.all(
    sql`SELECT order_id, unit FROM partner_stock_units WHERE product_code = ${PRODUCT} AND status IN ('held', 'sold')`,
  )) as { order_id: string; unit: number }[];
  expect(units.length).toBeLessThanOrEqual(STOCK);
  expect(new Set(units.map((u) => u.order_id)).size).toBe(units.length);
  const stock = await b.service.partnerStock(PRODUCT);
  expect(stock.available).toBeGreaterThanOrEqual(0);
  expect(stock.held + stock.sold + stock.available).toBe(STOCK);
  expect(stock.held + stock.sold).toBeLessThanOrEqual(units.length);
}

test("no interleaving sells a seat twice or exceeds partner stock", async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(batches, restarts, async (plan, restartAfter) => {
      const url = `file:${join(tmp.dir, `run-${n++}.db`)}`;
      const clock = new ManualClock();
      let b = await boot(url, { clock });
      const m = new Model();
      try {
        for (const [i, batch] of plan.entries()) {
          const results = await Promise.allSettled(batch.map((c) => run(b, clock, c, m)));
          for (const r of results) if (r.status === "rejected" && !isGatewayError(r.reason)) throw r.reason;
          await checkInvariants(b, m);
          if (restartAfter[i]) {
            const before = await b.service.seatAvailability(FLIGHT);
            const stockBefore = await b.service.partnerStock(PRODUCT);
            await b.close();
            b = await boot(url, { clock });
            expect(await b.service.seatAvailability(FLIGHT)).toEqual(before);
            expect(await b.service.partnerStock(PRODUCT)).toEqual(stockBefore);
          }
        }
      } finally {
        await b.close();
      }
    }),
    { numRuns: 40 },
  );
}, 30_000);
