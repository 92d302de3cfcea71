import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { verifyWebhook } from "@ndc/notifications";
import { book, start } from "../orders-http/order-list-helpers";
import { assertSchemaValid } from "../support/xsd";
import { call, startReceiver } from "./helpers";

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
 * decision 0020: the order's owner (the gateway process) expires it and writes the notification in
 * the same transaction; the scheduler process, which owns no actor, sends it. Neither writes the
 * other's state: no journal conflict, no error logged by either.
 */
test("serve and scheduler as two processes on one store: serve expires the order, the scheduler pushes its notification", async () => {
  // Booked five days ago (the helpers' fixed clock): its 24 h payment time limit is long past on the wall clock.
  const c = await start();
  const key = c.t.gw.sandbox!.api_key;
  const sub = await call(c.t, "POST", "/notifications/subscriptions", key, { url: receiver.url, events: ["order.payment_expired"] });
  const order = await book(c, { tag: "TWO-1" });
  expect(order.paymentTimeLimit!).toBeLessThan(Date.now());
  const dataDir = c.t.dataDir;
  await c.t.gw.close();

  const env = { ...process.env, GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local", LOG_LEVEL: "warn" };
  const spawn = (fixture: string, extra: Record<string, string>) =>
    Bun.spawn([process.execPath, join(import.meta.dir, "fixtures", fixture)], { env: { ...env, ...extra }, stdout: "pipe", stderr: "pipe" });
  // The gateway expires (every 100 ms) but does not dispatch; the scheduler dispatches (every 5 s).
  const gateway = spawn("gateway-child.ts", { ORDERS_BACKGROUND_MS: "100", NOTIFY_DISPATCH_MS: "0" });
  const scheduler = spawn("scheduler-child.ts", {});
  try {
    await until(() => receiver.requests.length >= 1, 30_000);
    await Bun.sleep(300);
  } finally {
    gateway.kill("SIGTERM");
    scheduler.kill("SIGTERM");
    await Promise.all([gateway.exited, scheduler.exited]);
  }
  const [push] = receiver.requests;
  expect(receiver.requests.length).toBe(1);
  assertSchemaValid(push!.body);
  expect(push!.body).toContain(`<OrderRefID>${order.orderId}</OrderRefID>`);
  expect(verifyWebhook(sub.json.secret, { id: push!.headers.get("webhook-id")!, timestamp: push!.headers.get("webhook-timestamp")!, signature: push!.headers.get("webhook-signature")! }, push!.body)).toBe(true);

  const db = new Database(join(dataDir, "gateway.db"), { readonly: true });
  try {
    expect(db.query("SELECT state FROM orders WHERE order_id = ?").get(order.orderId)).toEqual({ state: "cancelled" });
    expect(db.query("SELECT status, attempts FROM notification_deliveries").all()).toEqual([{ status: "delivered", attempts: 1 }]);
    // The job ran in the scheduler process and gave its lease back.
    expect(db.query("SELECT last_outcome FROM scheduler_jobs WHERE job = 'notifications.dispatch'").get()).toEqual({ last_outcome: "done" });
  } finally {
    db.close();
  }
  // Neither process logged an error (a journal conflict, a failed job) or failed loudly.
  const logs = [gateway.stdout, gateway.stderr, scheduler.stdout, scheduler.stderr].map((s) => new Response(s).text());
  const [gwOut, gwErr, schOut, schErr] = await Promise.all(logs);
  expect(gwOut).toContain("READY");
  expect(schOut).toContain("READY");
  expect(gwOut + schOut).not.toContain('"level":"error"');
  expect(gwErr + schErr).toBe("");
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);
