import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { createLogger } from "@ndc/log";
import { JOBS, startScheduler } from "@ndc/scheduler";
import type { TestGateway } from "../support/gateway";
import { gateway, orderCreateRQ, orderIdOf, shopOffer, TRAVEL_DATE } from "../orders-http/helpers";

/**
 * The scheduler's registry holds `payments.clearance` and `orders.closing` under those names, and
 * runs them by name (runNow, as croner does): with the order actors (serve's in-process scheduler)
 * the closing check closes; without them (the scheduler process) it skips and writes no order.
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

const summary = (job: string) => JSON.parse((t.gw.store.db.all(`SELECT last_summary FROM scheduler_jobs WHERE job = '${job}'`) as { last_summary: string }[])[0]!.last_summary);

test("payments.clearance and orders.closing run by name from the registry; without the order actors closing is skipped", async () => {
  const jobs = JOBS.filter((j) => j.name === "payments.clearance" || j.name === "orders.closing");
  expect(jobs.map((j) => [j.name, j.schedule])).toEqual([["payments.clearance", "*/10 * * * * *"], ["orders.closing", "30 * * * * *"]]);
  const shopped = await shopOffer(t);
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "settlement", method: "CA", amountMinor: shopped.totalMinor }], seller: t.gw.sandbox!.iata_number, correlationId: "sched-1", trxId: "sched-1" }));
  expect(r.status).toBe(200);
  const orderId = orderIdOf(r.body);
  clock.advance(Date.parse(`${TRAVEL_DATE}T00:00:00Z`) + 2 * 86_400_000 - clock.now());
  const logger = createLogger({ level: "silent" });
  const base = { store: t.gw.store, config: t.gw.config, logger, clock, jobs, leaseMs: 60_000 };

  // The scheduler process: the Clearance Manager, no order actors.
  const apart = startScheduler({ ...base, clearances: t.gw.clearances, holder: "scheduler-process" });
  try {
    expect(await apart.runNow("orders.closing")).toBe(true);
    expect(summary("orders.closing")).toEqual({ skipped: 1 });
    expect(await apart.runNow("payments.clearance")).toBe(true);
    expect(summary("payments.clearance")).toEqual({ cleared: 1 });
  } finally {
    await apart.stop();
  }
  expect(t.gw.store.db.all(`SELECT state FROM orders WHERE order_id = '${orderId}'`)).toEqual([{ state: "booked" }]);

  // serve's in-process scheduler: beside the actors, it closes.
  const inServe = startScheduler({ ...base, clearances: t.gw.clearances, orders: t.gw.orders, holder: "serve" });
  try {
    expect(await inServe.runNow("orders.closing")).toBe(true);
    expect(summary("orders.closing")).toEqual({ closed: 1, waiting: 0 });
  } finally {
    await inServe.stop();
  }
  expect(t.gw.store.db.all(`SELECT state FROM orders WHERE order_id = '${orderId}'`)).toEqual([{ state: "closed" }]);
}, 60_000);
