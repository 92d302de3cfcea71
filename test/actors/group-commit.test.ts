import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ActorSystem } from "@ndc/actors";
import { ManualClock } from "@ndc/clock";
import { isConstraintViolation, type Store } from "@ndc/store";
import { counterKind } from "../fixtures/actor-counter";
import { DRIVERS, journalOf, openMigrated, tempDir } from "./helpers";

/**
 * Group commit of the file stores (bun:sqlite and the libSQL file driver) (packages/store/src/commit-queue.ts, issue 8 §1): writes
 * ready within one tick share one COMMIT (one fsync); a write that throws is rolled back alone;
 * a COMMIT that fails fails every write of its batch, and no actor applies any of them.
 */
let tmp: ReturnType<typeof tempDir>;
const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  tmp?.cleanup();
});

async function open(driver: (typeof DRIVERS)[number]): Promise<Store> {
  tmp = tempDir("ndc-group-commit-");
  const store = await openMigrated(tmp.url, driver);
  opened.push(store);
  await store.write((_tx, raw) =>
    raw.exec(`
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
      CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE);`),
  );
  return store;
}

const count = async (store: Store, table: string) => ((await store.db.all(sql.raw(`SELECT count(*) AS n FROM ${table}`))) as { n: number }[])[0]!.n;

// Both file drivers share the commit queue (the libSQL file driver since 2026-11-29).
describe.each(DRIVERS)("group commit (%s)", (driver) => {
  test("50 concurrent writes share one COMMIT, and every one is durable when its promise resolves", async () => {
    const store = await open(driver);
    const before = { ...store.commits };
    const writes = Array.from({ length: 50 }, (_, i) => store.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES (${`v${i}`})`)));
    // Each write's promise settles after the shared COMMIT: its row is visible to the reader.
    await Promise.all(writes.map((w) => w.then(async () => expect(await count(store, "t")).toBe(50))));
    expect(store.commits.transactions - before.transactions).toBe(50);
    expect(store.commits.commits - before.commits).toBe(1);
  });

  test("a write that throws inside a batch is rolled back alone; the others commit", async () => {
    const store = await open(driver);
    await store.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('taken')`));
    const before = { ...store.commits };
    const results = await Promise.allSettled([
      store.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('a')`)),
      store.write(async (tx) => {
        await tx.run(sql`INSERT INTO t (v) VALUES ('b')`);
        await tx.run(sql`INSERT INTO t (v) VALUES ('taken')`); // UNIQUE: this write fails
      }),
      store.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('c')`)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(isConstraintViolation((results[1] as PromiseRejectedResult).reason)).toBe(true);
    const vs = ((await store.db.all(sql`SELECT v FROM t ORDER BY v`)) as { v: string }[]).map((r) => r.v);
    expect(vs).toEqual(["a", "c", "taken"]); // b went with its write
    expect(store.commits.commits - before.commits).toBe(1);
  });

  test("a failed COMMIT fails every write of the batch and leaves every actor's memory unchanged", async () => {
    const store = await open(driver);
    const system = new ActorSystem({ store, clock: new ManualClock(), limits: { idleMs: 60_000, mailboxLimit: 100 }, sweepEveryMs: false });
    const counter = system.register(counterKind("test.group"));
    await Promise.all([counter.ask("a", { op: "bump", id: "a1" }), counter.ask("b", { op: "bump", id: "b1" })]);

    // Three writes in one tick: two actors' commands and a write whose deferred foreign key
    // fails only at COMMIT, so the whole batch's COMMIT is refused.
    const results = await Promise.allSettled([
      counter.ask("a", { op: "bump", id: "a2", by: 5 }),
      store.write((tx) => tx.run(sql`INSERT INTO child (id, parent) VALUES (1, 999)`)),
      counter.ask("b", { op: "bump", id: "b2", by: 7 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/i);
    // Memory: what it was before the batch. Store: nothing of the batch.
    expect(counter.peek("a")).toEqual({ seq: 1, value: { total: 1, count: 1 } });
    expect(counter.peek("b")).toEqual({ seq: 1, value: { total: 1, count: 1 } });
    expect((await journalOf(store, "test.group", "a")).map((r) => r.id)).toEqual(["a1"]);
    expect((await journalOf(store, "test.group", "b")).map((r) => r.id)).toEqual(["b1"]);
    expect(await count(store, "child")).toBe(0);

    // The next commands (reloaded from the store) go through, at the seq after the last durable one.
    expect(await counter.ask("a", { op: "bump", id: "a3" })).toEqual({ seq: 2, total: 2 });
    expect(await counter.ask("b", { op: "bump", id: "b3" })).toEqual({ seq: 2, total: 2 });
    await system.close();
  });

  test("store.exec runs outside any batch, between them", async () => {
    const store = await open(driver);
    const [, mode] = await Promise.all([
      store.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('x')`)),
      store.exec("PRAGMA wal_checkpoint(PASSIVE)"),
      store.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('y')`)),
    ]);
    expect(mode).toBeUndefined();
    expect(await count(store, "t")).toBe(2);
  });

  test("two stores on one file: each actor checks the journal's head before a command, so neither forks the other's seq", async () => {
    const store = await open(driver);
    const other = await openMigrated(tmp.url, driver);
    opened.push(other);
    const clock = new ManualClock();
    const limits = { idleMs: 60_000, mailboxLimit: 100 };
    const one = new ActorSystem({ store, clock, limits, sweepEveryMs: false }).register(counterKind("test.shared"));
    const two = new ActorSystem({ store: other, clock, limits, sweepEveryMs: false }).register(counterKind("test.shared"));
    expect(await one.ask("k", { op: "bump", id: "one-1" })).toEqual({ seq: 1, total: 1 });
    expect(await two.ask("k", { op: "bump", id: "two-1" })).toEqual({ seq: 2, total: 2 }); // loaded after one's commit
    // Resident at seq 1 in `one`: the head moved to 2, so it catches up and writes seq 3 (decision 0040).
    expect(await one.ask("k", { op: "bump", id: "one-2" })).toEqual({ seq: 3, total: 3 });
    expect((await journalOf(store, "test.shared", "k")).map((r) => r.id)).toEqual(["one-1", "two-1", "one-2"]);
  });
});
