import { afterEach, expect, test } from "bun:test";
import { hostname } from "node:os";
import { announceInstance, deadInstances, HEARTBEAT_LAPSE_MS, instances } from "@ndc/orders";
import type { Store } from "@ndc/store";
import { openMigrated, tempDir } from "../actors/helpers";

/**
 * Process liveness (packages/orders/src/liveness/instances.ts, docs/decisions/0040): which
 * operation owners are known dead. Known dead: a heartbeat older than the lapse, or a pid of this
 * host that no longer runs. Not known dead: a live process, a fresh heartbeat of another host, an
 * owner with no row at all.
 */
let tmp: ReturnType<typeof tempDir>;
let store: Store;
afterEach(async () => {
  await store?.close();
  tmp?.cleanup();
});

test("a process's row at announce, its heartbeat kept, removed on stop; the dead told from the living", async () => {
  tmp = tempDir("ndc-liveness-");
  store = await openMigrated(tmp.url, "bun-sqlite");
  const now = Date.now();
  const me = await announceInstance(store, "me");
  const rows = await store.db.select().from(instances).all();
  expect(rows).toMatchObject([{ instanceId: "me", host: hostname(), pid: process.pid }]);

  // A child that ran and exited: its pid no longer runs on this host.
  const child = Bun.spawn([process.execPath, "-e", "0"]);
  await child.exited;
  await store.write((tx) =>
    tx
      .insert(instances)
      .values([
        { instanceId: "killed", host: hostname(), pid: child.pid, startedAt: now, heartbeatAt: now },
        { instanceId: "silent", host: "elsewhere", pid: 1, startedAt: now - 60_000, heartbeatAt: now - HEARTBEAT_LAPSE_MS - 1 },
        { instanceId: "far-alive", host: "elsewhere", pid: 1, startedAt: now, heartbeatAt: now },
      ])
      .run(),
  );
  expect([...(await deadInstances(store, now))].sort()).toEqual(["killed", "silent"]);

  await me.stop();
  expect((await store.db.select().from(instances).all()).map((r) => r.instanceId).sort()).toEqual(["far-alive", "killed", "silent"]);
});
