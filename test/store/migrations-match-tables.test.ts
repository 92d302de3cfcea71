import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { migrate, openStore, type Store } from "@ndc/store";
import { definedTables } from "../support/drizzle-tables";

/**
 * The SQL migrations (schemas/migrations, what the database really holds) and the drizzle tables
 * (each owning package's src/tables, what the code reads and writes, collected from every package
 * by test/support/drizzle-tables.ts) describe one schema: every table of either is in the other,
 * column for column (name, declared type, NOT NULL, primary key). A column added on one side
 * only fails here, not at the first query that touches it in production.
 */
let store: Store;
let drizzleTables: SQLiteTable[];
beforeAll(async () => {
  store = await openStore("file::memory:");
  await migrate(store);
  drizzleTables = (await definedTables()).map((t) => t.table);
});
afterAll(() => store.close());

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  primaryKey: boolean;
}

/** Tables the migration runner keeps for itself; no domain code reads them through drizzle. */
const RUNNER_TABLES = new Set(["schema_migrations"]);

function drizzleColumns(t: SQLiteTable): Column[] {
  const config = getTableConfig(t);
  const compositePk = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
  return config.columns
    .map((c) => ({ name: c.name, type: c.getSQLType().toUpperCase(), notNull: c.notNull || c.primary, primaryKey: c.primary || compositePk.has(c.name) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

async function sqlColumns(table: string): Promise<Column[]> {
  const rows = (await store.db.all(sql.raw(`PRAGMA table_info(${JSON.stringify(table)})`))) as { name: string; type: string; notnull: number; pk: number }[];
  // SQLite lets a PRIMARY KEY column be NULL unless it is declared NOT NULL or is an INTEGER PRIMARY KEY;
  // drizzle calls every primary key column not null, so the SQL side is compared the same way.
  return rows
    .map((r) => ({ name: r.name, type: r.type.toUpperCase(), notNull: r.notnull === 1 || r.pk > 0, primaryKey: r.pk > 0 }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

test("every table the migrations create has a drizzle table, and every drizzle table is created", async () => {
  const created = ((await store.db.all(sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))) as { name: string }[])
    .map((r) => r.name)
    .filter((n) => !RUNNER_TABLES.has(n))
    .sort();
  expect(created.length).toBeGreaterThan(10);
  expect(drizzleTables.map((t) => getTableConfig(t).name).sort()).toEqual(created);
});

test("each table's columns agree: name, type, NOT NULL, primary key", async () => {
  const mismatches: string[] = [];
  for (const t of drizzleTables) {
    const name = getTableConfig(t).name;
    const want = drizzleColumns(t);
    const have = await sqlColumns(name);
    if (JSON.stringify(want) !== JSON.stringify(have)) mismatches.push(`${name}\n  drizzle: ${JSON.stringify(want)}\n  sql:     ${JSON.stringify(have)}`);
  }
  expect(mismatches).toEqual([]);
});
