import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { ManualClock } from "@ndc/clock";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { bootGateway } from "@ndc/gateway";
import { T0 } from "../orders-http/helpers";
import { book, start } from "../orders-http/order-list-helpers";
import { databaseEnv, dropDatabaseFor } from "../support/database";

const DAY = 86_400_000;

/**
 * A gateway started on a later day places only flights from that day on: an order whose flights
 * fell out of the schedule still has them recorded flown by the delivery sweep once their date is
 * past, so it stops being a candidate of every run (and its partner products can be read back).
 */
test("flights the schedule no longer places are recorded flown once their date is past", async () => {
  const c = await start({ ORDERS_BACKGROUND_MS: "0" });
  const order = await book(c, { tag: "RESTART", day: 3, payment: [{ kind: "card", token: "tok_approve_visa", amount: { amount: 20_000, currency: "EUR" } }] });
  expect(order.state).toBe("booked");
  const dataDir = c.t.dataDir;
  await c.t.gw.close();
  const clock = new ManualClock(T0 + 40 * DAY);
  const gw = await bootGateway({ config: loadConfig({ GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local", OPERATIONS_FEED_PER_MILLE: "0", ...databaseEnv(dataDir) }), logger: createLogger({ level: "silent" }), clock });
  try {
    const key = order.journeys[0]!.flightKeys[0]!;
    expect(gw.supply.flight(key)).toBeUndefined();
    expect(await gw.orders.deliverFlown()).toEqual({ orders: 1 });
    const after = await gw.orders.retrieve(order.orderId, c.seller);
    expect(after.flown!.map((f) => f.flightKey)).toEqual(order.journeys.flatMap((j) => j.flightKeys));
    expect(await gw.orders.deliverFlown()).toEqual({ orders: 0 });
  } finally {
    await gw.close();
    rmSync(dataDir, { recursive: true, force: true });
    dropDatabaseFor(dataDir);
  }
}, 60_000);
