import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock, systemClock } from "@ndc/clock";
import { OfferRepository } from "@ndc/shopping";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { migrate, openStore, type Store } from "@ndc/store";
import type { ScheduledJob } from "./job";
import { JOBS } from "./jobs";
import { startScheduler, type Scheduler } from "./runner";
import { storeOnlyDomain } from "../../../test/support/store-only-jobs";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function setup(jobs?: readonly ScheduledJob[]): Promise<{ scheduler: Scheduler; store: Store; dir: string; events: Array<Record<string, unknown>> }> {
  const dir = mkdtempSync(join(tmpdir(), "ndc-sched-"));
  const config = loadConfig({ GATEWAY_DATA_DIR: dir });
  const store = await openStore(config.databaseUrl);
  await migrate(store);
  const events: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level: "debug", sink: (l) => events.push(JSON.parse(l)) });
  const scheduler = startScheduler({ ...storeOnlyDomain(), store, config, logger, clock: systemClock, jobs });
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => store.close(), () => scheduler.stop());
  return { scheduler, store, dir, events };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("scheduler", () => {
  test("the registry holds store.checkpoint, hourly", () => {
    const job = JOBS.find((j) => j.name === "store.checkpoint");
    expect(job?.schedule).toBe("0 17 * * * *");
    expect(new Set(JOBS.map((j) => j.name)).size).toBe(JOBS.length);
  });

  test("store.checkpoint truncates the write-ahead log", async () => {
    const { scheduler, store, dir, events } = await setup();
    await store.exec("CREATE TABLE t (x TEXT)");
    for (let i = 0; i < 50; i++) await store.exec(`INSERT INTO t VALUES ('${"x".repeat(500)}')`);
    const wal = join(dir, "gateway.db-wal");
    const before = statSync(wal).size;
    expect(before).toBeGreaterThan(20_000);
    expect(await scheduler.runNow("store.checkpoint")).toBe(true);
    // Truncated to nothing, then the job's status row (scheduler_jobs) written after it: one page and the header.
    expect(statSync(wal).size).toBeLessThanOrEqual(4096 + 56);
    expect(events.find((e) => e.event === "job_done" && e.job === "store.checkpoint")).toBeDefined();
    // The data survived the checkpoint.
    expect(await store.db.all("SELECT count(*) AS n FROM t")).toEqual([{ n: 50 }]);
  });

  test("a failing job is logged, not thrown, and runs again next time", async () => {
    let runs = 0;
    const boom: ScheduledJob = {
      name: "test.boom",
      schedule: "* * * * * *",
      description: "always fails",
      run: async () => {
        runs++;
        throw new Error("supplier down");
      },
    };
    const { scheduler, events } = await setup([boom]);
    expect(await scheduler.runNow("test.boom")).toBe(true);
    // Scheduled runs fail too; an unhandled rejection here would fail the test run.
    await sleep(1_300);
    expect(runs).toBeGreaterThanOrEqual(2);
    const failed = events.filter((e) => e.event === "job_failed");
    expect(failed.length).toBe(runs);
    expect(failed[0]).toMatchObject({ job: "test.boom", error: "supplier down", trigger: "manual" });
  });

  test("a job never overlaps itself, on schedule or by hand", async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const slow: ScheduledJob = {
      name: "test.slow",
      schedule: "* * * * * *", // every second, and each run takes longer than that
      description: "takes 1.5 s",
      run: async () => {
        runs++;
        maxActive = Math.max(maxActive, ++active);
        await sleep(1_500);
        active--;
      },
    };
    const { scheduler, events } = await setup([slow]);
    while (runs === 0) await sleep(20); // the first scheduled run has started
    expect(await scheduler.runNow("test.slow")).toBe(false); // refused while it runs
    await sleep(1_100); // the next tick lands while it is still running: croner's protect skips it
    expect(maxActive).toBe(1);
    expect(runs).toBe(1);
    expect(events.some((e) => e.event === "job_skipped_overlap" && e.job === "test.slow")).toBe(true);
    await scheduler.stop();
    expect(maxActive).toBe(1);
  });

  test("stop waits for the run in flight", async () => {
    let finished = false;
    const job: ScheduledJob = {
      name: "test.wait",
      schedule: "0 0 1 1 *",
      description: "yearly",
      run: async () => {
        await sleep(200);
        finished = true;
      },
    };
    const { scheduler } = await setup([job]);
    void scheduler.runNow("test.wait");
    await sleep(10);
    await scheduler.stop();
    expect(finished).toBe(true);
    expect(await scheduler.runNow("test.wait")).toBe(false);
  });

  test("duplicate job names and unknown names are refused", async () => {
    const j: ScheduledJob = { name: "dup", schedule: "0 0 1 1 *", description: "", run: async () => {} };
    const { scheduler } = await setup([j]);
    await expect(scheduler.runNow("nope")).rejects.toThrow('no job named "nope"');
    const { store } = await setup([]);
    expect(() =>
      startScheduler({ ...storeOnlyDomain(), store, config: loadConfig({}), logger: createLogger({ level: "silent" }), clock: systemClock, jobs: [j, j] }),
    ).toThrow('"dup" is registered twice');
  });
});

describe("offers.purge", () => {
  test("deletes only offers whose expiry has passed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ndc-purge-"));
    const store = await openStore(`file:${join(dir, "g.db")}`);
    try {
      await migrate(store);
      const clock = new ManualClock();
      const owner = { clientId: "c", agencyId: "A" };
      const repo = new OfferRepository(store, clock);
      const offer = (id: string, ttl: number) => ({ offerId: id, source: "air_shopping" as const, owner, createdAt: clock.now(), expiresAt: clock.now() + ttl, payload: {} });
      await repo.save([offer("old", 1_000), offer("live", 60_000)]);
      clock.advance(2_000);
      const job = JOBS.find((j) => j.name === "offers.purge")!;
      const config = loadConfig({ GATEWAY_DATA_DIR: dir });
      expect(await job.run({ ...storeOnlyDomain(), store, config, clock, logger: createLogger({ level: "silent" }) })).toEqual({ purged: 1 });
      expect((await repo.resolve("live", owner)).offerId).toBe("live");
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
