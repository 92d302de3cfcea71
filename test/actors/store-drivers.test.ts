import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { driverFor, isConstraintViolation, migrate, openStore, readMigrations, splitStatements, storeErrorCode, type Store } from "@ndc/store";
import { DRIVERS, gate, openMigrated, tempDir } from "./helpers";

const ALL = readMigrations().map((m) => m.version);

describe("driverFor", () => {
  test.each([
    ["file:/d/gateway.db", undefined, "bun-sqlite"],
    ["file:/d/gateway.db", "libsql", "libsql"],
    ["file:/d/gateway.db", "", "bun-sqlite"],
    ["libsql://db.example.turso.io", undefined, "libsql"],
    ["https://sqld.internal:8080", undefined, "libsql"],
    ["http://127.0.0.1:8080", "libsql", "libsql"],
  ] as const)("%s with driver %p -> %s", (url, requested, expected) => {
    expect(driverFor(url, requested)).toBe(expected);
  });

  test("refuses unknown URLs and drivers", () => {
    expect(() => driverFor("mysql://x/y")).toThrow("unsupported database URL");
    expect(driverFor("postgres://u@h:5432/db")).toBe("postgres");
    expect(driverFor("postgresql://u@h/db")).toBe("postgres");
    expect(() => driverFor("postgres://u:secret@h/db", "libsql")).toThrow(/cannot open a PostgreSQL URL: postgres:\/\/u:…@h\/db$/);
    expect(() => driverFor("file:/d/x.db", "mysql")).toThrow("GATEWAY_DATABASE_DRIVER");
    expect(() => driverFor("libsql://x.turso.io?authToken=secret", "bun-sqlite")).toThrow(/cannot open a server URL: libsql:\/\/x\.turso\.io\?…$/);
  });
});

describe("splitStatements", () => {
  test("splits at semicolons outside strings, comments and trigger bodies", () => {
    const script = [
      "-- a comment; not a split",
      "CREATE TABLE a (x TEXT DEFAULT 'semi;colon', \"we;ird\" INTEGER);",
      "/* block; comment */ INSERT INTO a VALUES ('it''s;', 1);",
      "CREATE TRIGGER a_t AFTER INSERT ON a BEGIN",
      "  UPDATE a SET x = 'y' WHERE rowid = new.rowid;",
      "  SELECT 1;",
      "END;",
      "CREATE TEMP TRIGGER b_t AFTER DELETE ON a BEGIN SELECT 2; END;",
      "SELECT 3",
    ].join("\n");
    const parts = splitStatements(script);
    expect(parts).toHaveLength(5);
    expect(parts[0]).toEndWith("INTEGER);");
    expect(parts[1]).toStartWith("/* block; comment */ INSERT");
    expect(parts[2]).toStartWith("CREATE TRIGGER a_t");
    expect(parts[2]).toEndWith("END;");
    expect(parts[3]).toBe("CREATE TEMP TRIGGER b_t AFTER DELETE ON a BEGIN SELECT 2; END;");
    expect(parts[4]).toBe("SELECT 3");
  });

  test("every shipped migration splits into statements SQLite accepts one by one", async () => {
    const tmp = tempDir();
    const store = await openStore(tmp.url, { driver: "bun-sqlite" });
    try {
      await store.write(async (_tx, raw) => {
        for (const m of readMigrations()) for (const stmt of splitStatements(m.sql)) await raw.exec(stmt);
      });
    } finally {
      await store.close();
      tmp.cleanup();
    }
  });
});

describe.each(DRIVERS)("store driver %s", (driver) => {
  let store: Store | undefined;
  let tmp: ReturnType<typeof tempDir>;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    tmp?.cleanup();
  });
  const open = async () => {
    tmp = tempDir();
    store = await openMigrated(tmp.url, driver);
    await store.write((_tx, raw) => raw.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"));
    return store;
  };
  const count = async (s: Store) => ((await s.db.all(sql`SELECT count(*) AS n FROM t`)) as { n: number }[])[0]!.n;

  test("applies every migration once, each recorded", async () => {
    const s = await open();
    expect(s.driver).toBe(driver);
    const rows = (await s.db.all(sql`SELECT version FROM schema_migrations ORDER BY version`)) as { version: string }[];
    expect(rows.map((r) => r.version)).toEqual(ALL);
    expect(ALL).toContain("0003_actor_journal");
    expect(await migrate(s)).toEqual([]);
    const tables = (await s.db.all(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'actor_%' ORDER BY name`)) as { name: string }[];
    expect(tables.map((t) => t.name)).toEqual(["actor_journal", "actor_snapshots"]);
  });

  // bun:sqlite's writer commits with NORMAL (1) and fsyncs the -wal file on the thread pool
  // before a write settles (drivers/wal-sync.ts, test/store/wal-sync.test.ts); libSQL with FULL (2).
  const writerSync = driver === "bun-sqlite" ? 1 : 2;
  test(`WAL, and synchronous=${writerSync === 1 ? "NORMAL plus an fsync of the -wal file" : "FULL"} on the write path`, async () => {
    const s = await open();
    expect(((await s.db.all(sql`PRAGMA journal_mode`)) as { journal_mode: string }[])[0]!.journal_mode).toBe("wal");
    expect(((await s.db.all(sql`PRAGMA synchronous`)) as { synchronous: number }[])[0]!.synchronous).toBe(2);
    for (let i = 0; i < 3; i++) {
      // Checked on several writes: a driver that recycles connections would lose the pragma.
      const inTx = await s.write(async (tx) => ((await tx.all(sql`PRAGMA synchronous`)) as { synchronous: number }[])[0]!.synchronous);
      expect(inTx).toBe(writerSync);
      await s.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('x')`));
    }
  });

  test("a write commits; a throwing write rolls back and rethrows", async () => {
    const s = await open();
    await s.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('a')`));
    const boom = new Error("boom");
    await expect(
      s.write(async (tx) => {
        await tx.run(sql`INSERT INTO t (v) VALUES ('b')`);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await count(s)).toBe(1);
    // The connection is usable after the rollback.
    await s.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('c')`));
    expect(await count(s)).toBe(2);
  });

  test("a constraint failure inside a write rolls back the rows before it", async () => {
    const s = await open();
    await s.write((tx) => tx.run(sql`INSERT INTO t (id, v) VALUES (1, 'a')`));
    const error = await s
      .write(async (tx) => {
        await tx.run(sql`INSERT INTO t (id, v) VALUES (2, 'b')`);
        await tx.run(sql`INSERT INTO t (id, v) VALUES (1, 'dup')`);
      })
      .catch((e: unknown) => e);
    expect(isConstraintViolation(error)).toBe(true);
    expect(storeErrorCode(error)).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
    expect(await count(s)).toBe(1);
  });

  test("reads during an open write see only committed rows and do not join it", async () => {
    const s = await open();
    const inserted = gate();
    const release = gate();
    const writing = s.write(async (tx) => {
      await tx.run(sql`INSERT INTO t (v) VALUES ('pending')`);
      inserted.open();
      await release.wait;
    });
    await inserted.wait;
    expect(await count(s)).toBe(0);
    release.open();
    await writing;
    expect(await count(s)).toBe(1);
  });

  test("store.db is read-only: writes must go through write()", async () => {
    const s = await open();
    const error = await Promise.resolve()
      .then(() => s.db.run(sql`INSERT INTO t (v) VALUES ('sneaky')`))
      .catch((e: unknown) => e);
    expect(storeErrorCode(error)).toBe("SQLITE_READONLY");
    expect(await count(s)).toBe(0);
  });

  test("write() inside write() is refused instead of deadlocking", async () => {
    const s = await open();
    const outcome = await s.write(async (tx) => {
      await tx.run(sql`INSERT INTO t (v) VALUES ('outer')`);
      return s.write(() => undefined).then(
        () => "nested ran",
        (e: Error) => e.message,
      );
    });
    expect(outcome).toContain("inside another write");
    expect(await count(s)).toBe(1);
  });

  test("concurrent read-modify-write transactions are serialised", async () => {
    const s = await open();
    await s.write((tx) => tx.run(sql`INSERT INTO t (id, v) VALUES (1, '0')`));
    await Promise.all(
      Array.from({ length: 100 }, () =>
        s.write(async (tx) => {
          const [row] = (await tx.all(sql`SELECT v FROM t WHERE id = 1`)) as { v: string }[];
          await Promise.resolve(); // yield: another write must still not interleave
          await tx.run(sql`UPDATE t SET v = ${String(Number(row!.v) + 1)} WHERE id = 1`);
        }),
      ),
    );
    expect(((await s.db.all(sql`SELECT v FROM t WHERE id = 1`)) as { v: string }[])[0]!.v).toBe("100");
  });

  test("a failing migration leaves no half schema and no record", async () => {
    tmp = tempDir();
    const dir = join(tmp.dir, "migrations");
    mkdirSync(dir);
    writeFileSync(join(dir, "0001_ok.sql"), "CREATE TABLE a (x INTEGER);");
    writeFileSync(join(dir, "0002_bad.sql"), "CREATE TABLE b (x INTEGER);\nINSERT INTO no_such_table VALUES (1);");
    store = await openStore(tmp.url, { driver });
    const error = await migrate(store, dir).catch((e: unknown) => e);
    expect(String((error as Error).message) + String((error as { cause?: Error }).cause?.message)).toContain("no_such_table");
    const names = (await store.db.all(sql`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)) as { name: string }[];
    expect(names.map((n) => n.name)).toEqual(["a", "schema_migrations"]);
    const versions = (await store.db.all(sql`SELECT version FROM schema_migrations`)) as { version: string }[];
    expect(versions.map((v) => v.version)).toEqual(["0001_ok"]);
    // Fixed file: the next run applies only what is missing.
    writeFileSync(join(dir, "0002_bad.sql"), "CREATE TABLE b (x INTEGER);");
    expect(await migrate(store, dir)).toEqual(["0002_bad"]);
  });

  test("data written is there after close and reopen, whichever driver reopens it", async () => {
    const s = await open();
    await s.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('kept')`));
    await s.close();
    store = undefined;
    for (const other of DRIVERS) {
      const again = await openStore(tmp.url, { driver: other });
      expect(await migrate(again)).toEqual([]);
      expect(await count(again)).toBe(1);
      await again.close();
    }
  });

  test("close waits for queued writes and then refuses new ones", async () => {
    const s = await open();
    const queued = Array.from({ length: 20 }, (_, i) => s.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES (${String(i)})`)));
    await s.close();
    await Promise.all(queued);
    expect(s.write(() => undefined)).rejects.toThrow("store is closed");
    store = await openStore(tmp.url, { driver });
    expect(await count(store)).toBe(20);
  });

  test.skipIf(!readdirSafe("/proc/self/fd"))("file descriptors stay flat across many writes", async () => {
    const s = await open();
    const before = readdirSync("/proc/self/fd").length;
    for (let i = 0; i < 300; i++) await s.write((tx) => tx.run(sql`INSERT INTO t (v) VALUES ('x')`));
    expect(readdirSync("/proc/self/fd").length - before).toBeLessThan(10);
  });
});

function readdirSafe(path: string): boolean {
  try {
    readdirSync(path);
    return true;
  } catch {
    return false;
  }
}
