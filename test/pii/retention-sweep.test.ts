import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { listErasures, travelEndOf } from "@ndc/pii";
import { startScheduler, type Scheduler } from "@ndc/scheduler";
import { documentsRetention } from "../../apps/scheduler/src/jobs/documents-retention";
import { storeOnlyDomain } from "../support/store-only-jobs";
import { boot, orderInput, shop, tempDir, type Booted } from "../orders/helpers";

const DAY = 86_400_000;
let t: ReturnType<typeof tempDir>;
let b: Booted;
let scheduler: Scheduler;
let events: Record<string, unknown>[];
beforeAll(async () => {
  t = tempDir();
  b = await boot(t.url, { dir: t.dir });
  events = [];
  scheduler = startScheduler({
    ...storeOnlyDomain(),
    store: b.store,
    config: loadConfig({ GATEWAY_DATA_DIR: t.dir, ORDER_TRAVEL_DOC_RETENTION_DAYS: "30" }),
    logger: createLogger({ level: "debug", sink: (l) => events.push(JSON.parse(l)) }),
    clock: b.clock,
    jobs: [documentsRetention],
  });
});
afterAll(async () => {
  await scheduler.stop();
  await b.close();
  t.cleanup();
});

const docs = async (orderId: string) =>
  (await b.store.db.all(`SELECT number_ciphertext AS n, holder_surname AS s, erased_at AS e FROM identity_documents WHERE order_id = '${orderId}'`)) as { n: string | null; s: string | null; e: number | null }[];
const lastSummary = () => events.filter((e) => e.event === "job_done").at(-1);

test("documents are erased 30 days after travel ends, computed from the order's dates at each run; a moved flight moves it", async () => {
  const moved = await b.orders.create(orderInput("RET-MOVED", await shop(b, { tag: "RET-MOVED" }), { docs: true }));
  const order = await b.orders.create(orderInput("RET-1", await shop(b, { tag: "RET-1" }), { docs: true }));
  const travelTo = ((await b.store.db.all(`SELECT travel_to AS t FROM orders WHERE order_id = '${order.orderId}'`)) as { t: string }[])[0]!.t;
  expect(travelTo).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const deadline = travelEndOf(travelTo) + 30 * DAY;
  // The airline retimes the other order's flights, twice, through its actor: ten days later in all; its deadline follows.
  const movedTo = ((await b.store.db.all(`SELECT travel_to AS t FROM orders WHERE order_id = '${moved.orderId}'`)) as { t: string }[])[0]!.t;
  expect(movedTo).toBe(travelTo);
  const keys = moved.journeys.flatMap((j) => j.flightKeys);
  for (const [n, days] of [[1, 4], [2, 6]] as const) {
    const changes = keys.map((flightKey) => ({ ref: `retime-${n}:${flightKey}`, flightKey, kind: "retime" as const, minutes: days * 24 * 60, reasonCode: "OPERATIONAL" }));
    expect((await b.orders.ctx.orders.ask(moved.orderId, { op: "changeSchedule", changes }))!.scheduleChanges!.length).toBe(keys.length * n);
  }

  b.clock.set(deadline - 1);
  expect(await scheduler.runNow("documents.retention")).toBe(true);
  expect(lastSummary()).toMatchObject({ job: "documents.retention", orders: 0, documents: 0 });
  expect((await docs(order.orderId))[0]!.n).not.toBeNull();

  b.clock.set(deadline);
  await scheduler.runNow("documents.retention");
  expect(lastSummary()).toMatchObject({ orders: 1, documents: 1 });
  expect(await docs(order.orderId)).toEqual([{ n: null, s: null, e: deadline }]);
  expect((await docs(moved.orderId))[0]!.n).not.toBeNull();
  // The audit row of the erasure, written with it.
  expect((await listErasures(b.store.db, order.orderId)).map((r) => [r.path, r.actor, r.documents, r.erasedAt])).toEqual([["retention", "scheduler", 1, deadline]]);
  expect(await listErasures(b.store.db, moved.orderId)).toEqual([]);

  // Again: nothing left to erase for the first; the moved one at its own deadline.
  b.clock.set(deadline + 10 * DAY);
  await scheduler.runNow("documents.retention");
  expect(lastSummary()).toMatchObject({ orders: 1, documents: 1 });
  expect((await docs(moved.orderId))[0]!.e).toBe(deadline + 10 * DAY);
});
