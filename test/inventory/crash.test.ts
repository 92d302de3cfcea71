import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { systemClock } from "@ndc/clock";
import type { DriverName } from "@ndc/store";
import { boot, settle, tempDir } from "./helpers";

/**
 * SIGKILL a process selling seats from both channels and partner units, restart on the same
 * database, and check that every acknowledged sale is there, sold, exactly once, and that the
 * rehydrated actors and the store agree and still refuse what was sold.
 */
const WORKER = join(import.meta.dir, "../fixtures/inventory-crash-worker.ts");
const FLIGHT = "XB-132-2026-11-22";
const PRODUCT = "PP-ESIM";
const KILL_AFTER_ACKS = 60;

interface Acks {
  seats: Map<string, string>;
  units: Map<string, string>;
}

async function sellAndKill(dataDir: string, tag: string, driver: DriverName): Promise<Acks> {
  const child = Bun.spawn([process.execPath, WORKER, "sell", dataDir, tag], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, GATEWAY_DATABASE_DRIVER: driver },
  });
  const acks: Acks = { seats: new Map(), units: new Map() };
  let count = 0;
  let buffered = "";
  let killed = false;
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 15_000);
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop()!; // a partial last line is not an acknowledgement
    for (const line of lines) {
      const [what, id, holdId] = line.split(" ");
      if (what === "seat") {
        // The same seat acknowledged twice would be a double sale seen by the customers.
        expect(acks.seats.has(id!)).toBe(false);
        acks.seats.set(id!, holdId!);
        count++;
      } else if (what === "unit") {
        acks.units.set(id!, holdId!);
        count++;
      }
    }
    if (!killed && count >= KILL_AFTER_ACKS) {
      killed = true;
      child.kill("SIGKILL");
    }
  }
  clearTimeout(watchdog);
  await child.exited;
  if (!killed) throw new Error(`worker ended before ${KILL_AFTER_ACKS} acks: ${await new Response(child.stderr).text()}`);
  expect(child.signalCode).toBe("SIGKILL");
  return acks;
}

describe.each([
  ["bun-sqlite", 2],
  ["libsql", 1],
] as [DriverName, number][])("crash: SIGKILL while selling on %s", (driver, cycles) => {
  const tmp = tempDir("ndc-inventory-crash-");
  afterAll(() => tmp.cleanup());

  test(`no acknowledged sale lost and nothing sold twice over ${cycles} kill/restart cycle(s)`, async () => {
    const seatAcks = new Map<string, string>();
    const unitAcks = new Map<string, string>();
    for (let cycle = 1; cycle <= cycles; cycle++) {
      const acks = await sellAndKill(tmp.dir, `${driver}-c${cycle}`, driver);
      for (const [seat, hold] of acks.seats) {
        expect(seatAcks.has(seat)).toBe(false); // sold in an earlier life and again now
        seatAcks.set(seat, hold);
      }
      for (const [order, hold] of acks.units) unitAcks.set(order, hold);

      const b = await boot(tmp.url, { driver, clock: systemClock });
      try {
        const rows = (await b.store.db.all(
          sql`SELECT seat_id, hold_id, status FROM seat_inventory WHERE flight_key = ${FLIGHT} AND status IN ('held', 'sold')`,
        )) as { seat_id: string; hold_id: string; status: string }[];
        const live = new Map(rows.map((r) => [r.seat_id, r]));
        expect(live.size).toBe(rows.length); // one live row per seat
        for (const [seat, hold] of seatAcks) expect(live.get(seat)).toEqual({ seat_id: seat, hold_id: hold, status: "sold" });

        // The rehydrated actor says what the store says, seat by seat.
        const avail = await b.service.seatAvailability(FLIGHT);
        for (const s of avail.seats) {
          if (s.status === "held" || s.status === "sold") expect(live.get(s.seatId)?.status).toBe(s.status);
          else expect(live.has(s.seatId)).toBe(false);
        }
        // And refuses every acknowledged seat to both channels.
        const sample = [...seatAcks.keys()].slice(0, 20);
        const again = await settle(sample.flatMap((seat) => [b.webShop.sellSeat(FLIGHT, seat), b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [seat], holder: "after-crash" })]));
        expect(again.ok).toHaveLength(0);
        expect(new Set(again.codes)).toEqual(new Set(["seat_unavailable"]));

        const units = (await b.store.db.all(
          sql`SELECT order_id, hold_id, status FROM partner_stock_units WHERE product_code = ${PRODUCT} AND status IN ('held', 'sold')`,
        )) as { order_id: string; hold_id: string; status: string }[];
        const byOrder = new Map(units.map((u) => [u.order_id, u]));
        expect(byOrder.size).toBe(units.length);
        for (const [order, hold] of unitAcks) expect(byOrder.get(order)).toEqual({ order_id: order, hold_id: hold, status: "sold" });
        const stock = await b.service.partnerStock(PRODUCT);
        expect(stock.sold + stock.held).toBe(units.length);
        expect(stock.available).toBeGreaterThanOrEqual(0);
      } finally {
        await b.close();
      }
    }
    expect(seatAcks.size + unitAcks.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS * cycles);
  }, 30_000);
});
