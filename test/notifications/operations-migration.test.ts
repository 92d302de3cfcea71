import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { MIGRATIONS_DIR } from "@ndc/store";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { T0 } from "../orders-http/helpers";
import { partyOrderCreateRQ, quotedOffers, shopParty } from "../orders-http/item-selection-helpers";
import { all } from "../shopping/shop-requests";
import { bookWithFreeSeat } from "./operations-helpers";
import { ON_POSTGRES } from "../support/database";

/**
 * Migration 0037 fills the operations columns of orders written before it from their journal. Its
 * UPDATE, run again over orders the actor wrote (booked, never changed since), must give exactly
 * what the actor wrote: the flights, the first unflown date, the travel end, the partner items.
 */
let t: TestGateway;
const clock = new ManualClock(T0);
beforeAll(async () => {
  t = await startTestGateway({ ORDERS_BACKGROUND_MS: "0" }, clock);
}, 60_000);
afterAll(() => t.close());

const COLUMNS = "order_id, flight_keys, unflown_from, travel_end_at, partner_awaiting";

// SQLite's migration 0037 only: PostgreSQL never runs it (its migrations start at the baseline
// 0067, which has the columns; a SQLite database moved over brings them filled).
test.skipIf(ON_POSTGRES)("the backfill gives what the order's actor writes", async () => {
  await bookWithFreeSeat(t, "MIG-SEAT");
  const party = await shopParty(t, clock);
  const esim = party.services.get("PP-ESIM/-")!;
  const namings = [{ item: party.flights[0]!, pax: ["PAX1", "PAX2"] }, { item: party.flights[1]!, pax: ["PAX3"] }, { item: esim, pax: ["PAX1", "PAX2", "PAX3"] }];
  const total = party.flights.reduce((n, f) => n + f.stored.totalMinor, 0) + esim.stored.unitMinor!;
  const r = await t.ndc("OrderCreateRQ", partyOrderCreateRQ(quotedOffers(namings), total, "MIG-PARTNER", "orders@agency.example"));
  expect(all(r.body, "OrderID").length).toBeGreaterThan(0);

  const written = await t.gw.store.db.all(`SELECT ${COLUMNS} FROM orders ORDER BY order_id`);
  expect(written.length).toBe(2);
  expect(written.some((o) => (o as { partner_awaiting: number }).partner_awaiting === 1)).toBe(true);
  const sql = readFileSync(join(MIGRATIONS_DIR, "0037_order_operations.sql"), "utf8");
  const update = sql.slice(sql.indexOf("UPDATE orders SET"), sql.indexOf(";", sql.indexOf("UPDATE orders SET")) + 1);
  await t.gw.store.write((_tx, raw) => raw.exec(`UPDATE orders SET flight_keys = NULL, unflown_from = NULL, travel_end_at = NULL, partner_awaiting = 0; ${update}`));
  expect(await t.gw.store.db.all(`SELECT ${COLUMNS} FROM orders ORDER BY order_id`)).toEqual(written);
}, 60_000);
