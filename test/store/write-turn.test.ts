import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openStore, type Store } from "@ndc/store";
import { tempDir } from "../actors/helpers";
import { ROOT } from "../binary/processes";

/**
 * The write lock's waiting room (packages/store/src/drivers/write-turn.ts, decision 0040): each
 * batch of a bun:sqlite store first takes an exclusive flock on the database's `-turn` file, and a
 * process that finds it taken waits for it in a thread blocked in flock(), woken by the kernel when
 * the other process gives it up after its COMMIT, instead of polling BEGIN IMMEDIATE on timers and
 * leaving the lock free until its next poll. Another process here is a real store in a child.
 */
const dirs: { cleanup(): void }[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  dirs.splice(0).forEach((d) => d.cleanup());
});

async function fresh(): Promise<{ file: string; store: Store }> {
  const tmp = tempDir("ndc-write-turn-");
  dirs.push(tmp);
  const file = join(tmp.dir, "gateway.db");
  const store = await openStore(`file:${file}`, { driver: "bun-sqlite" });
  stores.push(store);
  await store.write((_tx, raw) => raw.exec("CREATE TABLE w (who TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (who, n))"));
  return { file, store };
}

// Another process's store: one write that says "locked" once inside and lasts argv[2] ms.
const OTHER = `
  import { sql } from "drizzle-orm";
  import { openStore } from "@ndc/store";
  const store = await openStore("file:" + process.argv[1], { driver: "bun-sqlite" });
  await store.write(async (tx) => {
    tx.run(sql\`INSERT INTO w VALUES ('other', 1)\`);
    console.log("locked");
    await Bun.sleep(Number(process.argv[2]));
  });
  await store.close();
`;

async function otherWriting(file: string, ms: number) {
  const other = Bun.spawn([process.execPath, "-e", OTHER, file, String(ms)], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const first = new TextDecoder().decode((await other.stdout.getReader().read()).value);
  expect(first.trim()).toBe("locked");
  return other;
}

/** Whether flock(1) could take the turn file at once (exit 0) or found it held (exit 1). */
const turnFree = (file: string) => Bun.spawnSync(["flock", "-n", `${file}-turn`, "true"]).exitCode === 0;

test("another process's write holds the turn: this write waits for it in a thread (the event loop keeps ticking), then commits; the turn is free after", async () => {
  const { file, store } = await fresh();
  const other = await otherWriting(file, 600);
  expect(turnFree(file)).toBe(false);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  try {
    const t0 = performance.now();
    await store.write((tx) => tx.run(sql`INSERT INTO w VALUES ('me', 1)`));
    const waited = performance.now() - t0;
    expect(waited).toBeGreaterThan(300);
    expect(ticks).toBeGreaterThan(waited / 10 / 3);
  } finally {
    clearInterval(timer);
  }
  expect(await other.exited).toBe(0);
  expect(turnFree(file)).toBe(true);
  expect(await store.db.all(sql`SELECT who FROM w ORDER BY who`)).toEqual([{ who: "me" }, { who: "other" }]);
}, 20_000);

test("a process killed while it holds the turn and the lock: the kernel frees both, the waiting write commits", async () => {
  const { file, store } = await fresh();
  const other = await otherWriting(file, 10_000);
  const mine = store.write((tx) => tx.run(sql`INSERT INTO w VALUES ('me', 1)`));
  await Bun.sleep(200);
  other.kill("SIGKILL");
  await other.exited;
  await mine;
  // The killed write never committed: only this one is there.
  expect(await store.db.all(sql`SELECT who FROM w ORDER BY who`)).toEqual([{ who: "me" }]);
}, 20_000);

test("two stores on one file in one process, 300 writes each at once: they take turns, nothing lost, nothing twice, the turn free after", async () => {
  const { file, store: one } = await fresh();
  const two = await openStore(`file:${file}`, { driver: "bun-sqlite" });
  stores.push(two);
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < 300; i++) {
    writes.push(one.write((tx) => tx.run(sql`INSERT INTO w VALUES ('one', ${i})`)));
    writes.push(two.write((tx) => tx.run(sql`INSERT INTO w VALUES ('two', ${i})`)));
  }
  await Promise.all(writes);
  expect(await one.db.all(sql`SELECT who, count(*) AS n FROM w GROUP BY who ORDER BY who`)).toEqual([
    { who: "one", n: 300 },
    { who: "two", n: 300 },
  ]);
  expect(turnFree(file)).toBe(true);
}, 20_000);
