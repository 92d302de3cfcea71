import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { JOBS, jobContextOf, patternOf, startScheduler } from "@ndc/scheduler";
import { book, orderHistoryRQ, orderRetrieveRQ, paymentRetryRQ, start, type Ctx } from "./order-list-helpers";

let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

async function until(check: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

const expiry = JOBS.find((j) => j.name === "orders.expire-unpaid")!;

test("the scheduler's orders.expire-unpaid cancels a held order once its payment time limit passes; OrderRetrieve shows Cancelled", async () => {
  const order = await book(c, { tag: "X1" });
  const before = await book(c, { tag: "X2" });
  const logs: string[] = [];
  // The scheduler app's runner over this gateway's domain: the same job, under its lease, run by
  // name (its cron set to new year, so only the test's runs happen).
  const scheduler = startScheduler({ ...jobContextOf(c.t.gw.domain, createLogger({ level: "debug", sink: (l) => logs.push(l) })), jobs: [{ ...expiry, schedule: "0 0 1 1 *" }] });
  try {
    // Not yet due: a run leaves both orders held.
    expect(await scheduler.runNow("orders.expire-unpaid")).toBe(true);
    expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).state).toBe("held_unpaid");
    c.clock.advance(order.paymentTimeLimit! - c.clock.now());
    expect(await scheduler.runNow("orders.expire-unpaid")).toBe(true);
    const state = async (id: string) => (await c.t.gw.orders.retrieve(id, c.seller)).state;
    expect([await state(order.orderId), await state(before.orderId)]).toEqual(["cancelled", "cancelled"]);
  } finally {
    await scheduler.stop();
  }
  const shown = await c.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(order.orderId));
  expect(shown.status).toBe(200);
  expect(shown.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
  expect((await c.t.ndc("OrderHistoryRQ", orderHistoryRQ(order.orderId))).body).toContain("<ChangeTypeCode>PAYMENT_EXPIRED</ChangeTypeCode>");
  const late = await c.t.ndc("OrderChangeRQ", paymentRetryRQ(order.orderId, "200.00", "tok_approve_visa"));
  expect(late.status).toBe(409);
  expect(logs.some((l) => l.includes('"job_done"') && l.includes('"orders.expire-unpaid"') && l.includes('"cancelled":2'))).toBe(true);
});

test("expiry, retained lapse and the reconciler run every ORDERS_BACKGROUND_MS, rounded to croner's seconds; 0 leaves them to be run by name", () => {
  const pattern = (ms: string, name: string) => patternOf(JOBS.find((j) => j.name === name)!, loadConfig({ ORDERS_BACKGROUND_MS: ms }));
  for (const name of ["orders.expire-unpaid", "orders.retained-lapse", "orders.reconcile"]) {
    expect(pattern("15000", name)).toBe("*/15 * * * * *");
    expect(pattern("100", name)).toBe("*/1 * * * * *");
    expect(pattern("120000", name)).toBe("0 */2 * * * *");
    expect(pattern("0", name)).toBeNull();
  }
  expect(patternOf(JOBS.find((j) => j.name === "notifications.dispatch")!, loadConfig({ NOTIFY_DISPATCH_MS: "1000" }))).toBe("*/1 * * * * *");
});
