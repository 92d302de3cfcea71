import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { createLogger } from "@ndc/log";
import { JOBS, jobContextOf, startScheduler } from "@ndc/scheduler";
import type { TestGateway } from "../support/gateway";
import { gateway, orderCreateRQ, orderIdOf, shopOffer, TRAVEL_DATE } from "../orders-http/helpers";

/**
 * The scheduler's registry holds `payments.clearance` and `orders.closing` under those names, and
 * runs them by name (runNow, as croner does) over the domain every process assembles: the
 * Clearance Manager clears, then the closing check closes the order through its actor.
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

const summary = async (job: string) => JSON.parse(((await t.gw.store.db.all(`SELECT last_summary FROM scheduler_jobs WHERE job = '${job}'`)) as { last_summary: string }[])[0]!.last_summary);

test("payments.clearance and orders.closing run by name from the registry over the domain: cleared, then closed", async () => {
  const jobs = JOBS.filter((j) => j.name === "payments.clearance" || j.name === "orders.closing");
  expect(jobs.map((j) => [j.name, j.schedule])).toEqual([["payments.clearance", "*/10 * * * * *"], ["orders.closing", "30 * * * * *"]]);
  const shopped = await shopOffer(t);
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "settlement", method: "CA", amountMinor: shopped.totalMinor }], seller: t.gw.sandbox!.iata_number, correlationId: "sched-1", trxId: "sched-1" }));
  expect(r.status).toBe(200);
  const orderId = orderIdOf(r.body);
  clock.advance(Date.parse(`${TRAVEL_DATE}T00:00:00Z`) + 2 * 86_400_000 - clock.now());
  const scheduler = startScheduler({ ...jobContextOf(t.gw.domain, createLogger({ level: "silent" })), clock, jobs, leaseMs: 60_000, holder: "scheduler-app" });
  try {
    // Not settled yet: the closing check waits for the clearance.
    expect(await scheduler.runNow("orders.closing")).toBe(true);
    expect(await summary("orders.closing")).toEqual({ closed: 0, waiting: 1 });
    expect(await scheduler.runNow("payments.clearance")).toBe(true);
    expect(await summary("payments.clearance")).toEqual({ cleared: 1 });
    expect(await scheduler.runNow("orders.closing")).toBe(true);
    expect(await summary("orders.closing")).toEqual({ closed: 1, waiting: 0 });
  } finally {
    await scheduler.stop();
  }
  expect(await t.gw.store.db.all(`SELECT state FROM orders WHERE order_id = '${orderId}'`)).toEqual([{ state: "closed" }]);
}, 60_000);
