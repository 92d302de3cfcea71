/**
 * One schema on two engines (issue 23 item 2, decision 0041): a fresh SQLite and a fresh
 * PostgreSQL, each migrated by the one runner from its own folder, have the same tables,
 * columns (name, type through the mapping, NOT NULL, default), primary keys, unique
 * constraints, CHECKs, foreign keys, indexes (columns, uniqueness, WHERE), triggers (name,
 * table, timing, event) and seeded rows, but for the intended differences listed in
 * test/store/pg-catalogue-diff.ts. Drift on either side fails: shown here on scratch copies.
 * The drizzle sqlite-core tables the code queries through match PostgreSQL's columns too. And the
 * runner on PostgreSQL: same versions reported, a failing file rolled back whole, two stores
 * migrating at once serialised by its advisory lock, text in SQLite's byte order.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { MIGRATIONS_DIR, migrate, openStore, readMigrations, type Store } from "@ndc/store";
import { PG_TYPES } from "../../scripts/pg-baseline";
import { definedTables } from "../support/drizzle-tables";
import { catalogueDifferences } from "./pg-catalogue-diff";
import { pgCatalogue, pgMissing, startCluster, storeAt, type Cluster, type PgAt } from "./pg-schema-support";

const missing = pgMissing("pg-catalogue");
if (missing) console.log(missing);

describe.skipIf(!!missing)("the PostgreSQL schema against SQLite's", () => {
  let cluster: Cluster;
  let lite: Store;
  let pg: PgAt;
  let liteApplied: string[];
  let pgApplied: string[];

  beforeAll(async () => {
    cluster = await startCluster();
    lite = await openStore("file::memory:");
    liteApplied = await migrate(lite);
    pg = await storeAt(await cluster.database("catalogue"));
    pgApplied = await migrate(pg.store);
  }, 60_000);

  // 60 s: stopping the cluster (its shutdown checkpoint) took 9.5 s on this shared 2-core machine under load.
  afterAll(async () => {
    await lite?.close();
    await pg?.close();
    cluster?.stop();
  }, 60_000);

  test("migrate reports the same versions on both engines, and applies nothing the second time", async () => {
    expect(pgApplied).toEqual(liteApplied);
    expect(pgApplied.at(-1)).toBe(readMigrations(MIGRATIONS_DIR).at(-1)!.version);
    const liteRows = (await lite.db.all(sql`SELECT version FROM schema_migrations ORDER BY version`)) as { version: string }[];
    const pgRows = (await pg.store.db.all(sql`SELECT version FROM schema_migrations ORDER BY version`)) as { version: string }[];
    expect(pgRows).toEqual(liteRows);
    expect(await migrate(pg.store)).toEqual([]);
  }, 60_000);

  test("the two catalogues differ only as intended", async () => {
    expect(await catalogueDifferences(lite, pg.pg)).toEqual([]);
  }, 60_000);

  test("drift on PostgreSQL fails the comparison: a column, a type, a default, an index, a CHECK, a trigger", async () => {
    const drift = await storeAt(await cluster.database("drift_pg"));
    try {
      await migrate(drift.store);
      await drift.pg.unsafe(`
        ALTER TABLE orders ADD COLUMN drift bigint;
        ALTER TABLE operations ALTER COLUMN locked_at TYPE integer;
        ALTER TABLE agencies ALTER COLUMN active SET DEFAULT 2;
        DROP INDEX orders_created;
        ALTER TABLE vouchers ADD CHECK (balance < 1000000);
        DROP TRIGGER staff_audit_no_delete ON staff_audit;`);
      const found = await catalogueDifferences(lite, drift.pg);
      expect([...found].sort()).toEqual([
        "orders: column drift: missing on SQLite",
        `operations: column locked_at: SQLite {"name":"locked_at","type":"bigint","notNull":false,"default":null} <> PostgreSQL {"name":"locked_at","type":"integer","notNull":false,"default":null}`,
        `agencies: column active: SQLite {"name":"active","type":"bigint","notNull":true,"default":"1"} <> PostgreSQL {"name":"active","type":"bigint","notNull":true,"default":"2"}`,
        "orders: index orders_created: missing on PostgreSQL",
        "vouchers: check CHECK ((balance < 1000000)): missing on SQLite",
        "trigger staff_audit_no_delete DELETE: missing on PostgreSQL",
      ].sort());
    } finally {
      await drift.close();
    }
  }, 60_000);

  test("drift on SQLite fails the comparison: a migration with no PostgreSQL twin", async () => {
    const scratch = await openStore("file::memory:");
    try {
      const extra = { version: "9999_drift", sql: "ALTER TABLE orders ADD COLUMN drift_note TEXT; CREATE TABLE drift_only (id TEXT PRIMARY KEY);" };
      await migrate(scratch, [...readMigrations(MIGRATIONS_DIR), extra]);
      expect(await catalogueDifferences(scratch, pg.pg)).toEqual(["table drift_only: missing on PostgreSQL", "orders: column drift_note: missing on PostgreSQL"]);
    } finally {
      await scratch.close();
    }
  }, 60_000);

  test("the drizzle sqlite-core tables' columns equal PostgreSQL's: name, type through the mapping, NOT NULL, primary key", async () => {
    const catalogue = new Map((await pgCatalogue(pg.pg)).map((t) => [t.name, t]));
    const tables = (await definedTables()).map((t) => t.table);
    expect(tables.map((t) => getTableConfig(t).name).sort()).toEqual([...catalogue.keys()].sort());
    const mismatches: string[] = [];
    for (const t of tables) {
      const config = getTableConfig(t);
      const compositePk = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
      const want = config.columns
        .map((c) => ({ name: c.name, type: PG_TYPES[c.getSQLType().toUpperCase()] ?? c.getSQLType(), notNull: c.notNull || c.primary, primaryKey: c.primary || compositePk.has(c.name) }))
        .sort((a, b) => a.name.localeCompare(b.name));
      const table = catalogue.get(config.name)!;
      const have = table.columns
        .map((c) => ({ name: c.name, type: c.type, notNull: c.notNull, primaryKey: table.primaryKey.includes(c.name) }))
        .sort((a, b) => a.name.localeCompare(b.name));
      if (JSON.stringify(want) !== JSON.stringify(have)) mismatches.push(`${config.name}\n  drizzle:    ${JSON.stringify(want)}\n  postgresql: ${JSON.stringify(have)}`);
    }
    expect(mismatches).toEqual([]);
  }, 60_000);

  test("text orders byte by byte as on SQLite, even in a database whose locale orders otherwise", async () => {
    // An airline's database may well be created with a natural-language collation (here ICU en-US:
    // _z, a, B, Z); the columns' COLLATE "C" keeps SQLite's BINARY order for ORDER BY and ranges.
    const admin = new Bun.SQL({ url: cluster.url, max: 1 });
    await admin.unsafe("CREATE DATABASE icu_natural TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'");
    await admin.close();
    const natural = await storeAt(cluster.url.replace(/\/[^/]+$/, "/icu_natural"));
    const scratch = await openStore("file::memory:");
    try {
      await migrate(natural.store);
      await migrate(scratch);
      const ids = ["a", "B", "_z", "Z"];
      const insert = `INSERT INTO sandbox_clocks (client_id, offset_ms, updated_at) VALUES ${ids.map((id) => `('${id}', 0, 0)`).join(", ")}`;
      await natural.pg.unsafe(insert);
      await scratch.write((_tx, raw) => raw.exec(insert));
      const query = "SELECT client_id FROM sandbox_clocks WHERE client_id > 'Y' ORDER BY client_id";
      const onSqlite = ((await scratch.db.all(sql.raw(query))) as { client_id: string }[]).map((r) => r.client_id);
      const onPg = ((await natural.pg.unsafe(query)) as { client_id: string }[]).map((r) => r.client_id);
      expect(onSqlite).toEqual(["Z", "_z", "a"]);
      expect(onPg).toEqual(onSqlite);
    } finally {
      await natural.close();
      await scratch.close();
    }
  }, 60_000);

  test("a failing migration on PostgreSQL leaves no half schema and no record; a baseline is recorded as the versions it covers", async () => {
    const bare = await storeAt(await cluster.database("failing"));
    const baseline = { version: "0005_baseline", sql: "CREATE TABLE a (x bigint);\n-- covers 0001_first\n-- covers 0005_fifth", covers: ["0001_first", "0005_fifth"] };
    const bad = { version: "0006_bad", sql: "CREATE TABLE b (x bigint);\nINSERT INTO no_such_table VALUES (1);" };
    try {
      const error = await migrate(bare.store, [baseline, bad]).catch((e: Error) => e);
      expect((error as Error).message).toContain("no_such_table");
      const tables = ((await bare.pg`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`) as { tablename: string }[]).map((r) => r.tablename);
      expect(tables).toEqual(["a", "schema_migrations"]);
      const versions = ((await bare.pg`SELECT version FROM schema_migrations ORDER BY version`) as { version: string }[]).map((r) => r.version);
      expect(versions).toEqual(["0001_first", "0005_fifth"]);
      // Fixed file: the next run applies only what is missing.
      expect(await migrate(bare.store, [baseline, { ...bad, sql: "CREATE TABLE b (x bigint);" }])).toEqual(["0006_bad"]);
    } finally {
      await bare.close();
    }
  }, 60_000);

  test("two stores migrating one new database at once: each migration applied once, the other waits on the advisory lock", async () => {
    const url = await cluster.database("together");
    const [a, b] = await Promise.all([storeAt(url), storeAt(url)]);
    try {
      const [ra, rb] = await Promise.all([migrate(a.store), migrate(b.store)]);
      expect([...ra, ...rb].sort()).toEqual(liteApplied);
      expect(await catalogueDifferences(lite, a.pg)).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});
