import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changeCounter, openStore } from "@ndc/store";

/**
 * The store's change counter (packages/store/src/data-version.ts) read from the WAL-index header
 * in the -shm file: it must move for every commit, whoever makes it (this store's writer, another
 * connection, another process), stay put without one, and never claim "unchanged" on a torn read.
 */
const dir = mkdtempSync(join(tmpdir(), "ndc-counter-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("moves with every commit from this writer, another connection and another process; still without one", async () => {
  const path = join(dir, "a.db");
  const store = await openStore(`file:${path}`, { driver: "bun-sqlite" });
  await store.exec("CREATE TABLE t (x INTEGER)");
  const counter = changeCounter(store.db)!;
  expect(counter).toBeDefined();
  const v0 = counter();
  expect(counter()).toBe(v0);
  await store.write(async (tx) => void (await (tx as any).run("INSERT INTO t VALUES (1)")));
  const v1 = counter();
  expect(v1).not.toBe(v0);
  expect(counter()).toBe(v1);
  const other = new Database(path);
  other.exec("PRAGMA busy_timeout = 5000; INSERT INTO t VALUES (2)");
  const v2 = counter();
  expect(v2).not.toBe(v1);
  other.close();
  const proc = Bun.spawnSync([process.execPath, "-e", `const { Database } = require("bun:sqlite"); const d = new Database(${JSON.stringify(path)}); d.exec("PRAGMA busy_timeout = 5000; INSERT INTO t VALUES (3)"); d.close();`]);
  expect(proc.exitCode).toBe(0);
  expect(counter()).not.toBe(v2);
  // A checkpoint that restarts the WAL changes no data, and whatever it does to the header, the
  // counter afterwards is stable again.
  await store.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const v3 = counter();
  expect(counter()).toBe(v3);
  await store.close();
  // Closed: the mapping is not read any more (its file could be truncated under it).
  expect(() => counter()).toThrow("closed");
});

test("a torn header (the two copies disagree) is never read as unchanged", async () => {
  const path = join(dir, "b.db");
  const store = await openStore(`file:${path}`, { driver: "bun-sqlite" });
  await store.exec("CREATE TABLE t (x INTEGER)");
  const counter = changeCounter(store.db)!;
  const before = counter();
  // Copy 2's iChange (bytes 56..59) made to disagree, as a writer caught between the two copies leaves it.
  const shm = Bun.mmap(`${path}-shm`, { shared: true });
  const words = new Uint32Array(shm.buffer, shm.byteOffset, 24);
  const kept = words[14]!;
  words[14] = kept + 1;
  const a = counter();
  const b = counter();
  expect([a === before, b === before, a === b]).toEqual([false, false, false]);
  words[14] = kept;
  expect(counter()).toBe(before);
  await store.close();
});
