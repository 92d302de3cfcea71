import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { migrate, openStore, type Store } from "@ndc/store";
import { runCli } from "../../cli/src/cli";
import type { ScheduledJob } from "./job";
import { jobStatus } from "./leases";
import { startScheduler } from "./runner";
import { storeOnlyDomain } from "../../../test/support/store-only-jobs";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function store(): Promise<{ dir: string; store: Store }> {
  const dir = mkdtempSync(join(tmpdir(), "ndc-lease-"));
  const s = await openStore(loadConfig({ GATEWAY_DATA_DIR: dir }).databaseUrl);
  await migrate(s);
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => s.close());
  return { dir, store: s };
}

const logs = (into: Record<string, unknown>[]) => createLogger({ level: "debug", sink: (l) => into.push(JSON.parse(l)) });

test("two schedulers on one store never run one job at once; the lease is given back with the run's outcome", async () => {
  // Two schedulers on one connection: two bun:sqlite connections in one thread would block each
  // other in SQLite's busy handler; the lease is one conditional write either way.
  const { dir, store: s } = await store();
  const s2 = s;
  let inside = 0;
  let most = 0;
  let runs = 0;
  const slow: ScheduledJob = {
    name: "test.slow",
    schedule: "0 0 1 1 *",
    description: "takes a while",
    async run() {
      most = Math.max(most, ++inside);
      runs++;
      await Bun.sleep(150);
      inside--;
      return { did: 1 };
    },
  };
  const clock = new ManualClock(Date.now());
  const config = loadConfig({ GATEWAY_DATA_DIR: dir });
  const ev1: Record<string, unknown>[] = [];
  const ev2: Record<string, unknown>[] = [];
  const a = startScheduler({ ...storeOnlyDomain(), store: s, config, logger: logs(ev1), clock, jobs: [slow], holder: "A" });
  const b = startScheduler({ ...storeOnlyDomain(), store: s2, config, logger: logs(ev2), clock, jobs: [slow], holder: "B" });
  cleanup.push(() => a.stop(), () => b.stop());
  const [ra, rb] = await Promise.all([a.runNow("test.slow"), b.runNow("test.slow")]);
  expect([ra, rb].sort()).toEqual([false, true]);
  expect(runs).toBe(1);
  expect(most).toBe(1);
  expect([...ev1, ...ev2].filter((e) => e.event === "job_skipped_locked").length).toBe(1);
  // Given back: the other one may run it now.
  expect(await (ra ? b : a).runNow("test.slow")).toBe(true);
  const [status] = await jobStatus(s, clock.now());
  expect(status).toMatchObject({ job: "test.slow", running: false, holder: null, lastOutcome: "done", lastSummary: { did: 1 } });
  expect(Date.parse(status!.nextRunAt!)).toBeGreaterThan(clock.now());
});

test("a holder that died keeps the job only until its lease lapses", async () => {
  const { dir, store: s } = await store();
  const clock = new ManualClock(Date.now());
  let runs = 0;
  const job: ScheduledJob = { name: "test.once", schedule: "0 0 1 1 *", description: "x", run: async () => void runs++ };
  const config = loadConfig({ GATEWAY_DATA_DIR: dir });
  const { takeLease } = await import("./leases");
  // "dead" took the lease and never gave it back.
  expect(await takeLease(s, "test.once", "dead", clock.now(), 60_000)).toBe(true);
  const sched = startScheduler({ ...storeOnlyDomain(), store: s, config, logger: createLogger({ level: "silent" }), clock, jobs: [job], holder: "alive", leaseMs: 60_000 });
  cleanup.push(() => sched.stop());
  expect(await sched.runNow("test.once")).toBe(false);
  expect((await jobStatus(s, clock.now()))[0]).toMatchObject({ running: true, holder: "dead" });
  clock.advance(60_001);
  expect(await sched.runNow("test.once")).toBe(true);
  expect(runs).toBe(1);
});

test("`ndc-gateway scheduler status` prints each job's last and next run", async () => {
  const { dir, store: s } = await store();
  const clock = new ManualClock(Date.now());
  const config = loadConfig({ GATEWAY_DATA_DIR: dir });
  const job: ScheduledJob = { name: "test.status", schedule: "0 0 1 1 *", description: "x", run: async () => ({ purged: 3 }) };
  const sched = startScheduler({ ...storeOnlyDomain(), store: s, config, logger: createLogger({ level: "silent" }), clock, jobs: [job] });
  await sched.runNow("test.status");
  await sched.stop();
  const out: string[] = [];
  const code = await runCli(["scheduler", "status"], { out: (l) => out.push(l), err: () => {}, env: { GATEWAY_DATA_DIR: dir } });
  expect(code).toBe(0);
  expect(out.length).toBe(1);
  expect(out[0]).toMatch(/^test\.status\tlast \S+Z done \{"purged":3\}\tnext \d{4}-01-01T00:00:00\.000Z\tidle$/);
});

test("a holder killed on this host frees the job at once; one on another host keeps it until its lease lapses", async () => {
  const { dir, store: s } = await store();
  const clock = new ManualClock(Date.now());
  const { takeLease } = await import("./leases");
  const { hostname } = await import("node:os");
  let runs = 0;
  const job: ScheduledJob = { name: "test.dead", schedule: "0 0 1 1 *", description: "x", run: async () => void runs++ };
  const sched = startScheduler({ ...storeOnlyDomain(), store: s, config: loadConfig({ GATEWAY_DATA_DIR: dir }), logger: createLogger({ level: "silent" }), clock, jobs: [job], holder: `${hostname()}:${process.pid}:me` });
  cleanup.push(() => sched.stop());
  // Another host's holder: alive as far as we can tell.
  expect(await takeLease(s, "test.dead", "elsewhere:1:x", clock.now(), 60_000)).toBe(true);
  expect(await sched.runNow("test.dead")).toBe(false);
  clock.advance(60_001);
  // A process of this host that is gone: one that ran and exited.
  const gone = Bun.spawn(["true"]);
  await gone.exited;
  expect(await takeLease(s, "test.dead", `${hostname()}:${gone.pid}:x`, clock.now(), 60_000)).toBe(true);
  expect(await sched.runNow("test.dead")).toBe(true);
  expect(runs).toBe(1);
});
