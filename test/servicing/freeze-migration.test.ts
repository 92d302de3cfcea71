import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { ManualClock } from "@ndc/clock";
import { freezeAtBooking, type Order } from "@ndc/orders";
import { startTestGateway } from "../support/gateway";
import { dropDatabaseFor, ON_POSTGRES } from "../support/database";
import { T0, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { bookBrand, orderRulesByOrder } from "./helpers";
import { outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { createdOrder, putSnapshot, rewriteCreated, snapshotOf, storeOf } from "./journal-helpers";
import { dayAfter } from "../support/dates";

/**
 * Migration 0016 freezes orders booked before freezing existed from their booked brand. Orders
 * are booked with today's code, then made "old" by taking their conditions out of the journal
 * (and of a snapshot) and forgetting that 0016 ran; the next boot runs it again.
 * An order 0016 could not freeze answers under the current policy with a warning: that holds on
 * either engine (such an order reaches PostgreSQL by `ndc-gateway migrate --to`), so it is a test
 * of its own, its order made unfrozen through the store.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) {
    rmSync(dir, { recursive: true, force: true });
    dropDatabaseFor(dir);
  }
});

function dataDir(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "ndc-freeze-"));
  dirs.push(dir);
  return { dir, env: { SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0", GATEWAY_DATA_DIR: dir } };
}

/** Without the conditions frozen at booking, as an order booked before freezing existed. */
const unfrozen = ({ fareConditions: _gone, ...o }: Order) => o as Order;

// Each test boots twice and books over HTTP: an explicit budget, so a loaded machine does not fail it on Bun's 5 s default.
// 0016 is SQLite's history: a PostgreSQL database starts from the baseline covering it (decision 0041), and orders copied from SQLite were frozen there.
test.skipIf(ON_POSTGRES)("older orders are frozen by migration 0016 from their booked brand; one whose brand policy cannot be read is left unfrozen", async () => {
  const { dir, env } = dataDir();
  const clock = new ManualClock(T0);
  const first = await startTestGateway(env, clock);
  const classic = await bookBrand(first, "CLASSIC", { back: true });
  const flex = await bookBrand(first, "FLEX");
  const comfort = await bookBrand(first, "COMFORT");
  await first.close();

  const store = await storeOf(dir);
  // New orders are frozen at booking, COMFORT too (from the supplier's conditions its offer showed).
  const booked = await createdOrder(store, classic.orderId);
  expect(booked.fareConditions).toEqual(freezeAtBooking(booked.journeys));
  expect((await createdOrder(store, comfort.orderId)).fareConditions?.directions[0]?.source).toBe("supplier");
  // Made old: no conditions in the journal; FLEX also has a snapshot without them.
  for (const id of [classic.orderId, flex.orderId, comfort.orderId]) await rewriteCreated(store, id, unfrozen);
  await putSnapshot(store, flex.orderId, 1, await createdOrder(store, flex.orderId));
  await store.write((tx) => tx.run(sql`DELETE FROM schema_migrations WHERE version = '0016_freeze_fare_conditions'`));
  expect((await createdOrder(store, classic.orderId)).fareConditions).toBeUndefined();
  await store.close();

  const second = await startTestGateway(env, clock);
  try {
    const after = await storeOf(dir);
    // Exactly what booking would have frozen from the same brands, marked as the migration's.
    for (const id of [classic.orderId, flex.orderId]) {
      const o = await createdOrder(after, id);
      expect(o.fareConditions).toEqual({ ...freezeAtBooking(o.journeys), frozenBy: "migration" });
    }
    expect((await createdOrder(after, classic.orderId)).fareConditions!.directions).toHaveLength(2);
    expect((await snapshotOf(after, flex.orderId))?.fareConditions?.frozenBy).toBe("migration");
    expect((await createdOrder(after, comfort.orderId)).fareConditions).toBeUndefined();
    await after.close();

    const frozen = await second.ndc("OrderRulesRQ", orderRulesByOrder(classic.orderId));
    expect(frozen.status).toBe(200);
    expect(frozen.body).toContain("Conditions frozen onto the order from its booked brand (migration 0016).");
    expect(frozen.body).not.toContain("<cns:Warning>");
  } finally {
    await second.close();
  }
}, 60_000);

test("an order 0016 could not freeze answers under its brand's current policy with a warning, in OrderRulesRS, OrderViewRS and the flight-change quote", async () => {
  const { dir, env } = dataDir();
  const clock = new ManualClock(T0);
  const first = await startTestGateway(env, clock);
  const classic = await bookBrand(first, "CLASSIC", { back: true });
  const comfort = await bookBrand(first, "COMFORT");
  await first.close();
  // COMFORT's brand policy cannot be read: 0016 leaves such an order as it was, without conditions.
  const store = await storeOf(dir);
  await rewriteCreated(store, comfort.orderId, unfrozen);
  await store.close();

  const second = await startTestGateway(env, clock);
  try {
    const fallback = await second.ndc("OrderRulesRQ", orderRulesByOrder(comfort.orderId));
    expect(fallback.status).toBe(200);
    expect(all(blocks(fallback.body, "Warning")[0]!, "Code")).toEqual(["fare_conditions_current_policy"]);
    expect(fallback.body).toContain("The order was booked before conditions were frozen: the brand's current policy applies.");
    const frozen = await second.ndc("OrderRulesRQ", orderRulesByOrder(classic.orderId));
    expect(frozen.status).toBe(200);
    expect(frozen.body).not.toContain("<cns:Warning>");
    // Every answer that uses the conditions says so: OrderViewRS too, not only OrderRulesRS.
    const view = await second.ndc("OrderRetrieveRQ", orderRetrieveRQ(comfort.orderId));
    expect(all(view.body, "Code")).toContain("fare_conditions_current_policy");
    const frozenView = await second.ndc("OrderRetrieveRQ", orderRetrieveRQ(classic.orderId));
    expect(frozenView.body).not.toContain("fare_conditions_current_policy");
    // And the flight-change quote (SHPOR1 rule 1: every quote says so).
    const comfortOrder = await second.gw.orders.ctx.orders.ask(comfort.orderId, { op: "get" });
    const out = outboundOf(second, comfortOrder!);
    const fallbackQuote = await second.ndc("OrderReshopRQ", reshopFlightRQ(comfort.orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }));
    expect(fallbackQuote.status).toBe(200);
    expect(all(blocks(fallbackQuote.body, "Warning")[0]!, "Code")).toEqual(["fare_conditions_current_policy"]);
    const classicOrder = await second.gw.orders.ctx.orders.ask(classic.orderId, { op: "get" });
    const frozenQuote = await second.ndc("OrderReshopRQ", reshopFlightRQ(classic.orderId, outboundOf(second, classicOrder!).itemIds, { ...outboundOf(second, classicOrder!), date: dayAfter(T0, 53) }));
    expect(frozenQuote.status).toBe(200);
    expect(frozenQuote.body).not.toContain("fare_conditions_current_policy");
  } finally {
    await second.close();
  }
}, 60_000);
