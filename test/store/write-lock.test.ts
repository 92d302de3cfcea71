import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { isGatewayError } from "@ndc/errors";
import { openStore, type Store } from "@ndc/store";
import { tempDir } from "../actors/helpers";

/**
 * The bun:sqlite writer beside other processes writing the same file (docs/decisions/0040): when
 * another process holds the write lock, BEGIN IMMEDIATE is tried again on timers (busy-wait.ts)
 * instead of sleeping inside SQLite, so this process keeps serving (its timers fire, its other
 * connections commit), every write ends up committed once, and a lock held past the wait is a
 * clean actor_busy (503, Retry-After 1).
 */
const dirs: { cleanup(): void }[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  dirs.splice(0).forEach((d) => d.cleanup());
});

async function fresh(): Promise<{ file: string; store: Store }> {
  const tmp = tempDir("ndc-write-lock-");
  dirs.push(tmp);
  const file = join(tmp.dir, "gateway.db");
  const store = await openStore(`file:${file}`, { driver: "bun-sqlite" });
  stores.push(store);
  await store.write((_tx, raw) => raw.exec("CREATE TABLE w (who TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (who, n))"));
  return { file, store };
}

// Another process takes the write lock, says so, holds it for argv[2] ms, then commits a row.
const HOLDER = `
  import { Database } from "bun:sqlite";
  const db = new Database(process.argv[1]);
  db.exec("BEGIN IMMEDIATE");
  db.exec("INSERT INTO w VALUES ('holder', 1)");
  console.log("locked");
  await Bun.sleep(Number(process.argv[2]));
  db.exec("COMMIT");
  db.close();
`;

async function holdLock(file: string, ms: number) {
  const holder = Bun.spawn([process.execPath, "-e", HOLDER, file, String(ms)], { stdout: "pipe", stderr: "pipe" });
  const first = new TextDecoder().decode((await holder.stdout.getReader().read()).value);
  expect(first.trim()).toBe("locked");
  return holder;
}

test("another process holds the write lock for 600 ms: the write waits for it on timers, the event loop keeps ticking, then it commits", async () => {
  const { file, store } = await fresh();
  const holder = await holdLock(file, 600);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  try {
    const t0 = performance.now();
    await store.write((tx) => tx.run(sql`INSERT INTO w VALUES ('me', 1)`));
    const waited = performance.now() - t0;
    expect(waited).toBeGreaterThan(300);
    // Sleeping inside SQLite (busy_timeout) would have let no timer fire while it waited.
    expect(ticks).toBeGreaterThan(waited / 10 / 3);
  } finally {
    clearInterval(timer);
  }
  expect(await holder.exited).toBe(0);
  expect(await store.db.all(sql`SELECT who FROM w ORDER BY who`)).toEqual([{ who: "holder" }, { who: "me" }]);
}, 20_000);

test("two stores on one file in one process, 300 writes each at once: both make progress, nothing lost, nothing twice", async () => {
  const { file, store: one } = await fresh();
  const two = await openStore(`file:${file}`, { driver: "bun-sqlite" });
  stores.push(two);
  const N = 300;
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < N; i++) {
    writes.push(one.write((tx) => tx.run(sql`INSERT INTO w VALUES ('one', ${i})`)));
    writes.push(two.write((tx) => tx.run(sql`INSERT INTO w VALUES ('two', ${i})`)));
  }
  const t0 = performance.now();
  await Promise.all(writes);
  const ms = performance.now() - t0;
  const counts = (await one.db.all(sql`SELECT who, count(*) AS n FROM w GROUP BY who ORDER BY who`)) as { who: string; n: number }[];
  expect(counts).toEqual([{ who: "one", n: N }, { who: "two", n: N }]);
  // Each store's group commit took its turn with the lock: neither waited out the other.
  expect(ms).toBeLessThan(4_000);
}, 20_000);

test("a lock held past the wait: the write fails with actor_busy and Retry-After 1, and the store writes again once it is free", async () => {
  const { file, store } = await fresh();
  const holder = await holdLock(file, 6_500);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  const refused = await store.write((tx) => tx.run(sql`INSERT INTO w VALUES ('me', 1)`)).then(() => null, (e: unknown) => e);
  clearInterval(timer);
  expect(isGatewayError(refused)).toBe(true);
  expect(refused).toMatchObject({ code: "actor_busy", retryAfterSeconds: 1 });
  expect(ticks).toBeGreaterThan(100);
  expect(await holder.exited).toBe(0);
  await store.write((tx) => tx.run(sql`INSERT INTO w VALUES ('me', 2)`));
  expect(await store.db.all(sql`SELECT who, n FROM w ORDER BY who, n`)).toEqual([{ who: "holder", n: 1 }, { who: "me", n: 2 }]);
}, 20_000);

test("two stores writing at once while one truncates the log and both checkpoint passively: every row kept, the file sound", async () => {
  const { file, store: one } = await fresh();
  const two = await openStore(`file:${file}`, { driver: "bun-sqlite" });
  stores.push(two);
  const N = 1500;
  const pad = "x".repeat(1000);
  const writes: Promise<unknown>[] = [];
  let truncated: Promise<void> | undefined;
  for (let i = 0; i < N; i++) {
    writes.push(one.write((tx) => tx.run(sql`INSERT INTO w VALUES (${`one-${pad}`}, ${i})`)));
    writes.push(two.write((tx) => tx.run(sql`INSERT INTO w VALUES (${`two-${pad}`}, ${i})`)));
    // Halfway: the scheduler's checkpoint job (TRUNCATE) from one process while the other writes.
    if (i === N / 2) truncated = one.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    if (i % 100 === 99) await Bun.sleep(1);
  }
  await Promise.all(writes);
  await truncated;
  // Let the checkpoint workers (PASSIVE, 200 ms after commits) run beside each other.
  await Bun.sleep(500);
  const [count] = (await one.db.all(sql`SELECT count(*) AS n FROM w`)) as { n: number }[];
  expect(count!.n).toBe(2 * N);
  expect(await two.db.all(sql`PRAGMA integrity_check`)).toEqual([{ integrity_check: "ok" }]);
}, 30_000);
