import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "@ndc/store";
import { databaseUrlFor } from "../support/database";
import { seatItem, shopOneWay, TRAVEL_DATE } from "../orders-http/multi-offer-helpers";
import { businessOffset, multiDataDir, webShop } from "./support";

/**
 * The web shop's CLI is one more process of the data directory (issue 22): `web-shop sell-seat`
 * and `web-shop book`, run with the workers' SANDBOX_CLOCK_START and SANDBOX_CLOCK_STARTED_AT,
 * record their sale and their order at the workers' business time, not at the real date, so
 * they sell the flights the workers sell and race them on one clock (test/multi/seat-race).
 */
const data = multiDataDir();
afterAll(() => data.close());

test("web-shop sell-seat and web-shop book processes write at the workers' business time", async () => {
  const a = await data.startWorker();
  const flight = await shopOneWay(a, "LHR", "CDG", TRAVEL_DATE);
  const seat = await seatItem(a, flight.offerId, 2);

  const before = Date.now();
  const sold = await webShop(data.dir, ["sell-seat", seat.flightKey, seat.seatId, "--customer", "clock"]);
  expect(sold.stderr).not.toContain('"level":"error"');
  expect(sold.stdout).toContain(`sold seat ${seat.seatId} on ${seat.flightKey}`);
  expect(sold.code).toBe(0);
  const pax = join(data.dir, "pax.json");
  writeFileSync(pax, JSON.stringify([{ givenNames: ["ADA"], surname: "CLOCK" }]));
  const booked = await webShop(data.dir, ["book", seat.flightKey, "--passengers", pax]);
  expect(booked.code).toBe(0);
  const orderId = /booked order (\S+) /.exec(booked.stdout)![1]!;
  const after = Date.now();

  // Business time is T0 (2026-11-21) plus the seconds since the anchor; real time is weeks or
  // years away from it, so a process on its own clock misses this window by far.
  const offset = await businessOffset(a, data.dir);
  const store = await openStore(databaseUrlFor(data.dir));
  try {
    const [sale] = (await store.db.all(`SELECT created_at AS at FROM seat_inventory WHERE holder = 'web-shop:clock'`)) as { at: number }[];
    const [order] = (await store.db.all(`SELECT created_at AS at FROM orders WHERE order_id = '${orderId}'`)) as { at: number }[];
    for (const at of [sale!.at, order!.at]) {
      expect(at).toBeGreaterThanOrEqual(before + offset - 1_000);
      expect(at).toBeLessThanOrEqual(after + offset + 1_000);
    }
  } finally {
    await store.close();
  }
}, 120_000);
