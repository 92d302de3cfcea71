import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { enqueue } from "@ndc/notifications";
import { openStore, storeErrorCode } from "@ndc/store";
import { startTestGateway } from "../support/gateway";
import { call, startReceiver } from "./helpers";
import { databaseEnv, databaseUrlFor, dropDatabaseFor } from "../support/database";

const N = 40;
const receiver = startReceiver(async () => {
  // Slow enough that a kill lands with attempts in flight.
  await Bun.sleep(60);
  return new Response(null, { status: 204 });
});
afterAll(() => receiver.stop());

function startChild(fixture: string, dataDir: string) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "fixtures", fixture)], {
    env: { ...process.env, ...databaseEnv(dataDir), GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local", NOTIFY_DISPATCH_MS: "20", NOTIFY_CLAIM_MS: "1000", ORDERS_BACKGROUND_MS: "0", LOG_LEVEL: "warn" },
    stdout: "pipe",
    stderr: "inherit",
  });
  return proc;
}

async function until(cond: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out");
    await Bun.sleep(10);
  }
}

// The scheduler app dispatching as its notifications.dispatch job (NOTIFY_DISPATCH_MS, rounded to croner's
// second), the one way notifications are sent since serve's own loop went (issue 22).
test.each([["the scheduler app", "scheduler-child.ts"]])("SIGKILL %s mid-dispatch, restart: every notification delivered at least once, a repeat under its own webhook-id", async (_who, fixture) => {
  receiver.requests.length = 0;
  const t = await startTestGateway({}, new ManualClock(Date.now()));
  const dataDir = t.dataDir;
  const key = t.gw.sandbox!.api_key;
  const sub = await call(t, "POST", "/notifications/subscriptions", key, { url: receiver.url, events: ["order.payment_expired"] });
  await t.gw.store.write(async (tx) => {
    for (let i = 0; i < N; i++) await enqueue(tx, { event: "order.payment_expired", agencyId: t.gw.sandbox!.agency_id, orderId: `ORD-${i}`, body: `<n i="${i}"/>` }, Date.now());
  });
  // The in-process gateway lets go of the store (its data dir is kept for the children).
  await t.gw.close();

  const first = startChild(fixture, dataDir);
  await until(() => receiver.requests.length >= 10, 30_000);
  first.kill("SIGKILL");
  await first.exited;
  const atKill = receiver.requests.length;
  expect(atKill).toBeLessThan(N);

  const second = startChild(fixture, dataDir);
  try {
    // Until the outbox says every delivery is acknowledged (the cut-short ones come again once their claims lapse).
    // Read through the store (the file, or the PostgreSQL database the children share).
    const store = await openStore(databaseUrlFor(dataDir));
    try {
      const delivered = async () => {
        try {
          return ((await store.db.all("SELECT count(*) AS n FROM notification_deliveries WHERE status = 'delivered'")) as { n: number }[])[0]!.n;
        } catch (e) {
          // The restarted child may be recovering the WAL the killed one left (SQLITE_BUSY_RECOVERY): ask again.
          if (storeErrorCode(e)?.startsWith("SQLITE_BUSY")) return -1;
          throw e;
        }
      };
      await until(async () => (await delivered()) === N, 60_000);
    } finally {
      await store.close();
    }
  } finally {
    second.kill("SIGTERM");
    await second.exited;
  }
  const byId = new Map<string, Set<string>>();
  for (const r of receiver.requests) {
    const id = r.headers.get("webhook-id")!;
    byId.set(id, (byId.get(id) ?? new Set()).add(r.body));
  }
  // Every notification arrived; a repeat (an attempt the kill cut short) carries the same id and the same body.
  expect(byId.size).toBe(N);
  // The kill landed with attempts in flight (the receiver had them, the outbox did not mark them): they came again.
  expect(receiver.requests.length).toBeGreaterThan(N);
  expect([...byId.values()].every((bodies) => bodies.size === 1)).toBe(true);
  expect(new Set([...byId.values()].map((b) => [...b][0])).size).toBe(N);

  const again = await startTestGateway({ GATEWAY_DATA_DIR: dataDir }, new ManualClock(Date.now()));
  try {
    const list = await call(again, "GET", `/notifications/subscriptions/${sub.json.id}/deliveries`, key);
    expect(list.json.deliveries.length).toBe(N);
    expect(new Set(list.json.deliveries.map((d: { id: string }) => d.id))).toEqual(new Set(byId.keys()));
  } finally {
    await again.close();
    rmSync(dataDir, { recursive: true, force: true });
    dropDatabaseFor(dataDir);
  }
}, 120_000);
