import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { freezeAtBooking, type Order } from "@ndc/orders";
import { startTestGateway } from "../support/gateway";
import { T0, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { bookBrand, orderRulesByOrder } from "./helpers";
import { outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { dayAfter } from "../support/dates";

/**
 * Migration 0016 freezes orders booked before freezing existed from their booked brand. Orders
 * are booked with today's code, then made "old" by taking their conditions out of the journal
 * (and of a snapshot) and forgetting that 0016 ran; the next boot runs it again.
 */
const dir = mkdtempSync(join(tmpdir(), "ndc-freeze-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = { SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0", GATEWAY_DATA_DIR: dir };

function createdOrder(db: Database, orderId: string): Order {
  const row = db.query("SELECT payload FROM actor_journal WHERE kind = 'orders.order' AND key = ? AND seq = 1").get(orderId) as { payload: string };
  return (JSON.parse(row.payload) as { order: Order }).order;
}

test("older orders are frozen from their booked brand; one whose brand policy cannot be read falls back with a warning", async () => {
  const clock = new ManualClock(T0);
  const first = await startTestGateway(env, clock);
  const classic = await bookBrand(first, "CLASSIC", { back: true });
  const flex = await bookBrand(first, "FLEX");
  const comfort = await bookBrand(first, "COMFORT");
  await first.close();

  const db = new Database(join(dir, "gateway.db"));
  // New orders are frozen at booking, COMFORT too (from the supplier's conditions its offer showed).
  const booked = createdOrder(db, classic.orderId);
  expect(booked.fareConditions).toEqual(freezeAtBooking(booked.journeys));
  expect(createdOrder(db, comfort.orderId).fareConditions?.directions[0]?.source).toBe("supplier");
  // Made old: no conditions in the journal; FLEX also has a snapshot without them.
  db.run("UPDATE actor_journal SET payload = json_remove(payload, '$.order.fareConditions') WHERE kind = 'orders.order'");
  const flexOrder = createdOrder(db, flex.orderId);
  db.run("INSERT OR REPLACE INTO actor_snapshots (kind, key, seq, state, updated_at) VALUES ('orders.order', ?, 1, ?, 0)", [flex.orderId, JSON.stringify(flexOrder)]);
  db.run("DELETE FROM schema_migrations WHERE version = '0016_freeze_fare_conditions'");
  expect(createdOrder(db, classic.orderId).fareConditions).toBeUndefined();
  db.close();

  const second = await startTestGateway(env, clock);
  try {
    const after = new Database(join(dir, "gateway.db"), { readonly: true });
    // Exactly what booking would have frozen from the same brands, marked as the migration's.
    for (const id of [classic.orderId, flex.orderId]) {
      const o = createdOrder(after, id);
      expect(o.fareConditions).toEqual({ ...freezeAtBooking(o.journeys), frozenBy: "migration" });
    }
    expect(createdOrder(after, classic.orderId).fareConditions!.directions).toHaveLength(2);
    const snap = after.query("SELECT state FROM actor_snapshots WHERE key = ?").get(flex.orderId) as { state: string };
    expect((JSON.parse(snap.state) as Order).fareConditions?.frozenBy).toBe("migration");
    expect(createdOrder(after, comfort.orderId).fareConditions).toBeUndefined();
    after.close();

    const frozen = await second.ndc("OrderRulesRQ", orderRulesByOrder(classic.orderId));
    expect(frozen.status).toBe(200);
    expect(frozen.body).toContain("Conditions frozen onto the order from its booked brand (migration 0016).");
    expect(frozen.body).not.toContain("<cns:Warning>");
    const fallback = await second.ndc("OrderRulesRQ", orderRulesByOrder(comfort.orderId));
    expect(fallback.status).toBe(200);
    expect(all(blocks(fallback.body, "Warning")[0]!, "Code")).toEqual(["fare_conditions_current_policy"]);
    expect(fallback.body).toContain("The order was booked before conditions were frozen: the brand's current policy applies.");
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
});
