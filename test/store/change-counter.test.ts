import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changeCounter, openStore } from "@ndc/store";

/**
 * The store's change counter (packages/store/src/data-version.ts), `PRAGMA data_version` on the
 * read connection: it must move for every commit, whoever makes it (this store's writer, another
 * connection, another process), stay put without one, and leave SQLite's own locks alone.
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
});

test("reading the counter leaves SQLite's own locks alone: this process still holds the -shm lock that tells other processes a connection is open", async () => {
  // Issue 19 item 1: the counter once mapped -shm with Bun.mmap, whose open and close of the file
  // released this process's POSIX locks on it, and the next process to open the database
  // re-initialised the WAL index under the gateway (SIGBUS). Linux lists the locks in /proc/locks.
  if (!existsSync("/proc/locks")) return console.log("no /proc/locks on this system: the lock is checked under load in test/crash/other-process-readers.test.ts");
  const path = join(dir, "b.db");
  const store = await openStore(`file:${path}`, { driver: "bun-sqlite" });
  await store.exec("CREATE TABLE t (x INTEGER)");
  const counter = changeCounter(store.db)!;
  counter();
  await store.write(async (tx) => void (await (tx as any).run("INSERT INTO t VALUES (1)")));
  counter();
  const inode = statSync(`${path}-shm`).ino;
  const mine = readFileSync("/proc/locks", "utf8")
    .split("\n")
    .filter((l) => new RegExp(`POSIX.*\\s${process.pid}\\s\\S+:${inode}\\s`).test(l));
  // The DMS slot: a read lock on byte 128 held by every process with the database open.
  expect(mine.some((l) => /\s128\s+128$/.test(l.trim()))).toBe(true);
  await store.close();
});
