import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openStore } from "@ndc/store";
import { verifyWebhook } from "@ndc/notifications";
import { book, FARE_MINOR, start } from "../orders-http/order-list-helpers";
import { assertSchemaValid } from "../support/xsd";
import { call, startReceiver } from "./helpers";
import { databaseEnv, databaseUrlFor, dropDatabaseFor } from "../support/database";

const receiver = startReceiver();
afterAll(() => receiver.stop());

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(20);
  }
}

/**
 * Issue 22 (decision 0040): a gateway process beside the scheduler app on one store. The scheduler
 * app, with its own actors, expires one order and records the other's flight flown, clears its
 * settlement-plan payment and closes it, each change writing its notification in its transaction,
 * and sends every notification; the gateway process runs no job. Each order's journal stays one
 * unbroken sequence, and neither process logs an error.
 */
test("a gateway and the scheduler app as two processes on one store: expiry, delivery, clearance and closing by the scheduler app, every notification pushed once", async () => {
  // Booked at the helpers' fixed clock, days ago: the held order's 24 h payment time limit is long past on the wall clock.
  const c = await start();
  const key = c.t.gw.sandbox!.api_key;
  const sub = await call(c.t, "POST", "/notifications/subscriptions", key, { url: receiver.url, events: ["order.payment_expired", "payment.clearance", "order.closed"] });
  const order = await book(c, { tag: "TWO-1" });
  expect(order.paymentTimeLimit!).toBeLessThan(Date.now());
  // Paid through the settlement plan on a flight two days after that clock: flown on the wall clock. Its clearance is
  // requested at capture; the order closes once the scheduler process has cleared it.
  const paid = await book(c, { tag: "TWO-2", day: 2, payment: [{ kind: "settlement", agencyId: c.seller.agencyId, amount: { amount: FARE_MINOR, currency: "EUR" } }] });
  expect(paid.state).toBe("booked");
  const [clearance] = (await c.t.gw.store.db.all(`SELECT clearance_id, status FROM payment_clearances WHERE order_id = '${paid.orderId}'`)) as { clearance_id: string; status: string }[];
  expect(clearance?.status).toBe("requested");
  const dataDir = c.t.dataDir;
  await c.t.gw.close();

  const env = { ...process.env, GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local", LOG_LEVEL: "warn", ...databaseEnv(dataDir) };
  const spawn = (fixture: string, extra: Record<string, string>) =>
    Bun.spawn([process.execPath, join(import.meta.dir, "fixtures", fixture)], { env: { ...env, ...extra }, stdout: "pipe", stderr: "pipe" });
  // The gateway runs no job; the scheduler app runs them all (expiry every second, dispatch every second).
  const gateway = spawn("gateway-child.ts", {});
  const scheduler = spawn("scheduler-child.ts", { ORDERS_BACKGROUND_MS: "1000" });
  // Expiry, clearance requested (ACCPT) and cleared (FLSTL), closing: four pushes.
  try {
    // Generous: two processes boot and migrate, clearance runs every 10 s, delivery at second 15 and
    // closing at second 30 of each minute, on a loaded machine.
    await until(() => receiver.requests.length >= 4, 130_000).catch((e) => {
      throw new Error(`${e.message}: pushes received ${JSON.stringify(receiver.requests.map((r) => r.path))}`);
    });
    await Bun.sleep(300);
  } finally {
    gateway.kill("SIGTERM");
    scheduler.kill("SIGTERM");
    await Promise.all([gateway.exited, scheduler.exited]);
  }
  expect(receiver.requests.length).toBe(4);
  for (const push of receiver.requests) {
    assertSchemaValid(push.body);
    expect(verifyWebhook(sub.json.secret, { id: push.headers.get("webhook-id")!, timestamp: push.headers.get("webhook-timestamp")!, signature: push.headers.get("webhook-signature")! }, push.body)).toBe(true);
  }
  const byPath = (p: string) => receiver.requests.filter((r) => r.path === `/24.4/${p}`).map((r) => r.body);
  expect(byPath("OrderChangeNotifRQ").map((b) => b.includes(`<OrderRefID>${order.orderId}</OrderRefID>`))).toEqual([true]);
  expect(byPath("PaymentClearanceNotif").map((b) => /<cns:StatusCode>(\w+)</.exec(b)![1])).toEqual(["ACCPT", "FLSTL"]);
  expect(byPath("PaymentClearanceNotif").every((b) => b.includes(`<cns:ClearanceID>${clearance!.clearance_id}</cns:ClearanceID>`))).toBe(true);
  expect(byPath("OrderClosingNotifRQ").map((b) => b.includes(`<cns:OrderID>${paid.orderId}</cns:OrderID>`))).toEqual([true]);

  // Read through the store (the file, or the PostgreSQL database the two processes shared).
  const store = await openStore(databaseUrlFor(dataDir));
  const rows = (q: ReturnType<typeof sql>) => store.db.all(q) as Promise<Record<string, unknown>[]>;
  try {
    expect(await rows(sql`SELECT state FROM orders WHERE order_id = ${order.orderId}`)).toEqual([{ state: "cancelled" }]);
    expect(await rows(sql`SELECT state FROM orders WHERE order_id = ${paid.orderId}`)).toEqual([{ state: "closed" }]);
    // Delivery: the scheduler app recorded the paid order's flight flown (flights_flown) before it closed it.
    const kinds = (await rows(sql`SELECT payload FROM actor_journal WHERE kind = 'orders.order' AND key = ${paid.orderId} ORDER BY seq`)).map((r) => JSON.parse(r.payload as string).type);
    expect(kinds.indexOf("flights_flown")).toBeGreaterThan(-1);
    expect(kinds.indexOf("flights_flown")).toBeLessThan(kinds.indexOf("closed"));
    expect(await rows(sql`SELECT status, cleared_by FROM payment_clearances`)).toEqual([{ status: "cleared", cleared_by: "manager" }]);
    expect(await rows(sql`SELECT status, attempts FROM notification_deliveries`)).toEqual(Array(4).fill({ status: "delivered", attempts: 1 }));
    // Each order's journal is one unbroken sequence: no second writer slipped an event in.
    for (const id of [order.orderId, paid.orderId]) {
      const seqs = (await rows(sql`SELECT seq FROM actor_journal WHERE kind = 'orders.order' AND key = ${id} ORDER BY seq`)).map((r) => r.seq as number);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    }
    // Every job that ran, ran in the scheduler app's process (a lease's holder is host:pid:id), none in
    // the gateway's. Which order jobs ran depends on the minute: delivery.flown fires at second 15 and
    // orders.closing at second 30, and a run that ends before either (the clearance path can close
    // the order first) leaves that job's row without a holder: only holders are checked, and the
    // expiry job, due every second, must be among them.
    const held = (await rows(sql`SELECT job, holder FROM scheduler_jobs WHERE holder IS NOT NULL`)) as { job: string; holder: string }[];
    expect(held.map((r) => r.job)).toContain("orders.expire-unpaid");
    for (const r of held) expect(`${r.job} ${r.holder.split(":")[1]}`).toBe(`${r.job} ${scheduler.pid}`);
    expect(await rows(sql`SELECT last_outcome FROM scheduler_jobs WHERE job = 'notifications.dispatch'`)).toEqual([{ last_outcome: "done" }]);
    expect(await rows(sql`SELECT last_outcome FROM scheduler_jobs WHERE job = 'payments.clearance'`)).toEqual([{ last_outcome: "done" }]);
  } finally {
    await store.close();
  }
  // Neither process logged an error (a journal conflict, a failed job) or failed loudly.
  const logs = [gateway.stdout, gateway.stderr, scheduler.stdout, scheduler.stderr].map((s) => new Response(s).text());
  const [gwOut, gwErr, schOut, schErr] = await Promise.all(logs);
  expect(gwOut).toContain("READY");
  expect(schOut).toContain("READY");
  expect(gwOut + schOut).not.toContain('"level":"error"');
  expect(gwErr + schErr).toBe("");
  rmSync(dataDir, { recursive: true, force: true });
  dropDatabaseFor(dataDir);
}, 180_000);
