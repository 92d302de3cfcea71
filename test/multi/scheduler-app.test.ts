import { afterAll, afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { storeSellerClocks } from "@ndc/auth";
import { verifyWebhook } from "@ndc/notifications";
import { sql, type SQL } from "drizzle-orm";
import { openStore } from "@ndc/store";
import { databaseUrlFor } from "../support/database";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { startReceiver } from "../notifications/helpers";
import { assertSchemaValid } from "../support/xsd";
import { multiDataDir, startSchedulerApp, startWorker, type SchedulerApp, type Worker } from "./support";

/**
 * Issue 22 items 3 and 4: the scheduler app runs every job over its own domain and actors, with
 * no gateway process needed; two of them on one store run each job once per tick; and a sandbox
 * control runs a job of the scheduler's registry in whichever worker answers it.
 */
const DAY = 86_400_000;
const receiver = startReceiver();
const dirs: { remove(): void }[] = [];
const running: (Worker | SchedulerApp)[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await p.stop();
  receiver.requests.length = 0;
});
afterAll(() => {
  receiver.stop();
  for (const d of dirs) d.remove();
});

function dataDir(): string {
  const d = multiDataDir();
  dirs.push(d);
  return d.dir;
}

const credentials = (dir: string) => JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8")) as { api_key: string; client_id: string };

const dirOf = new Map<Worker, string>();

/** A JSON call (subscriptions, sandbox controls) to `w` with the sandbox API key. */
async function json(w: Worker, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${w.url}${path}`, {
    method,
    headers: { "x-api-key": credentials(dirOf.get(w)!).api_key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function worker(dir: string): Promise<Worker> {
  const w = await startWorker(dir);
  dirOf.set(w, dir);
  running.push(w);
  return w;
}

async function schedulerApp(dir: string, env: Record<string, string> = {}): Promise<SchedulerApp> {
  const s = await startSchedulerApp(dir, env);
  running.push(s);
  return s;
}

/** A held order (no payment: 24 hours to pay), booked on `w`. */
async function heldOrder(w: Worker, tag: string): Promise<string> {
  const shopped = await shopOffer(w);
  const r = await w.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: `${tag}-C`, trxId: `${tag}-T` }));
  expect(r.status).toBe(200);
  return orderIdOf(r.body);
}

/**
 * The seller's sandbox clock moved two days on, in the store, as its POST /sandbox/clock would
 * move it, but without that control's sweeps: what is due is left to the process under test.
 */
async function moveSellerClock(dir: string, ms: number): Promise<void> {
  const store = await openStore(databaseUrlFor(dir));
  try {
    await storeSellerClocks(store).set(credentials(dir).client_id, ms, Date.now());
  } finally {
    await store.close();
  }
}

/** The rows of one query, read through the store (the SQLite file or the PostgreSQL database). */
async function rows<T>(dir: string, query: SQL): Promise<T[]> {
  const store = await openStore(databaseUrlFor(dir));
  try {
    return (await store.db.all(query)) as T[];
  } finally {
    await store.close();
  }
}

async function until(what: string, cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const expiredNotifs = (orderIds: string[]) =>
  receiver.requests.filter((r) => r.path === "/24.4/OrderChangeNotifRQ" && orderIds.some((id) => r.body.includes(`<OrderRefID>${id}</OrderRefID>`)));

test("the scheduler app alone (no gateway process running) expires a held order a stopped worker booked, and its notification is delivered once", async () => {
  const dir = dataDir();
  const w = await worker(dir);
  const sub = await json(w, "POST", "/notifications/subscriptions", { url: receiver.url, events: ["order.payment_expired"] });
  expect(sub.status).toBe(201);
  const orderId = await heldOrder(w, "ALONE");
  await w.stop();
  await moveSellerClock(dir, 2 * DAY);

  const app = await schedulerApp(dir, { ORDERS_BACKGROUND_MS: "1000" });
  await until("the expiry notification", () => expiredNotifs([orderId]).length >= 1, 30_000);
  // A few more ticks of expiry and dispatch: nothing is cancelled or sent again.
  await Bun.sleep(3_000);
  const pushes = expiredNotifs([orderId]);
  expect(pushes).toHaveLength(1);
  assertSchemaValid(pushes[0]!.body);
  expect(verifyWebhook(sub.json.secret, { id: pushes[0]!.headers.get("webhook-id")!, timestamp: pushes[0]!.headers.get("webhook-timestamp")!, signature: pushes[0]!.headers.get("webhook-signature")! }, pushes[0]!.body)).toBe(true);
  await app.stop();

  expect(await rows(dir, sql`SELECT state FROM orders WHERE order_id = ${orderId}`)).toEqual([{ state: "cancelled" }]);
  const events = (await rows<{ payload: string }>(dir, sql`SELECT payload FROM actor_journal WHERE kind = 'orders.order' AND key = ${orderId} ORDER BY seq`)).map((r) => JSON.parse(r.payload).type);
  expect(events.filter((e) => e === "payment_expired")).toHaveLength(1);
  expect(await rows(dir, sql`SELECT status, attempts FROM notification_deliveries`)).toEqual([{ status: "delivered", attempts: 1 }]);
  // Expiry and dispatch ran in the scheduler app's process (the lease holder is host:pid:id).
  for (const job of ["orders.expire-unpaid", "notifications.dispatch"]) {
    const [row] = await rows<{ holder: string; last_outcome: string }>(dir, sql`SELECT holder, last_outcome FROM scheduler_jobs WHERE job = ${job}`);
    expect([row!.holder.split(":")[1], row!.last_outcome]).toEqual([String(app.proc.pid), "done"]);
  }
  expect(app.stderr()).toBe("");
}, 90_000);

test("two scheduler apps at once on one store run each job once per tick: every order expired once, every notification sent once", async () => {
  const dir = dataDir();
  const w = await worker(dir);
  expect((await json(w, "POST", "/notifications/subscriptions", { url: receiver.url, events: ["order.payment_expired"] })).status).toBe(201);
  const orders = [await heldOrder(w, "TWO-1"), await heldOrder(w, "TWO-2"), await heldOrder(w, "TWO-3")];
  await w.stop();
  await moveSellerClock(dir, 2 * DAY);

  // job_done and job_skipped_locked are info lines: each app's log says what it ran and what it left.
  const env = { ORDERS_BACKGROUND_MS: "1000", LOG_LEVEL: "info" };
  const [a, b] = await Promise.all([schedulerApp(dir, env), schedulerApp(dir, env)]);
  await until("three expiry notifications", () => expiredNotifs(orders).length >= 3, 30_000);
  // Both apps keep ticking side by side for a while.
  await Bun.sleep(5_000);
  await Promise.all([a.stop(), b.stop()]);

  expect(expiredNotifs(orders)).toHaveLength(3);
  for (const id of orders) {
    expect(await rows(dir, sql`SELECT state FROM orders WHERE order_id = ${id}`)).toEqual([{ state: "cancelled" }]);
    const journal = await rows<{ seq: number; payload: string }>(dir, sql`SELECT seq, payload FROM actor_journal WHERE kind = 'orders.order' AND key = ${id} ORDER BY seq`);
    expect(journal.filter((r) => JSON.parse(r.payload).type === "payment_expired")).toHaveLength(1);
    expect(journal.map((r) => r.seq)).toEqual(journal.map((_, i) => journal[0]!.seq + i));
  }
  expect(await rows(dir, sql`SELECT count(*) AS n FROM notification_deliveries WHERE status = 'delivered' AND attempts = 1`)).toEqual([{ n: 3 }]);

  // Per job and per tick (the second croner fired it), one run across both apps; the other app's
  // cron for that tick found the lease taken.
  type Line = { ts: string; event: string; job?: string; trigger?: string };
  const lines = (app: SchedulerApp) =>
    app
      .stdout()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.trigger === "schedule");
  const runs = [...lines(a), ...lines(b)].filter((l) => l.event === "job_done" || l.event === "job_failed");
  const perTick = new Map<string, number>();
  for (const r of runs) perTick.set(`${r.job} ${r.ts.slice(0, 19)}`, (perTick.get(`${r.job} ${r.ts.slice(0, 19)}`) ?? 0) + 1);
  expect(runs.filter((r) => r.job === "orders.expire-unpaid").length).toBeGreaterThanOrEqual(5);
  expect([...perTick].filter(([, n]) => n > 1)).toEqual([]);
  const skipped = [...lines(a), ...lines(b)].filter((l) => l.event === "job_skipped_locked" && l.job === "orders.expire-unpaid");
  expect(skipped.length).toBeGreaterThanOrEqual(3);
  expect(a.stdout() + b.stdout()).not.toContain('"level":"error"');
}, 120_000);

test("/sandbox/scheduler/run answered by a worker runs the registry's job there, with no scheduler app running", async () => {
  const dir = dataDir();
  const w = await worker(dir);
  expect((await json(w, "POST", "/notifications/subscriptions", { url: receiver.url, events: ["order.payment_expired"] })).status).toBe(201);
  const orderId = await heldOrder(w, "RUN");
  await moveSellerClock(dir, 2 * DAY);

  const expired = await json(w, "POST", "/sandbox/scheduler/run", { job: "orders.expire-unpaid" });
  expect(expired).toEqual({ status: 200, json: { job: "orders.expire-unpaid", result: { cancelled: 1 } } });
  const shown = await w.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(shown.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
  // Every job of the registry runs by name, the reconciler and the purge among them.
  expect(await json(w, "POST", "/sandbox/scheduler/run", { job: "orders.reconcile" })).toEqual({ status: 200, json: { job: "orders.reconcile", result: { finished: 0, compensated: 0, failed: 0 } } });
  expect((await json(w, "POST", "/sandbox/scheduler/run", { job: "offers.purge" })).status).toBe(200);
  // Dispatch run by name in the worker sends the expiry's notification, once.
  const sent = await json(w, "POST", "/sandbox/scheduler/run", { job: "notifications.dispatch" });
  expect(sent.json.result.started).toBe(1);
  expect(expiredNotifs([orderId])).toHaveLength(1);
  // Run here, not by a scheduler: no job took a lease.
  expect(await rows(dir, sql`SELECT count(*) AS n FROM scheduler_jobs WHERE last_started_at IS NOT NULL`)).toEqual([{ n: 0 }]);
}, 60_000);
