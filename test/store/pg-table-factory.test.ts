/**
 * Spike for decision 0041's "tables defined once, built for both dialects" (issue 23 groundwork):
 * a prototype factory in this file, not yet the store's. It shows the three things the proposal
 * rests on, on two real tables (operations: nullable columns, a partial unique index; the actor
 * journal: a composite primary key):
 * - the sqlite-core twin it builds is the table the code uses today (same columns, SQL types,
 *   NOT NULL, keys, indexes with their WHERE), so moving the 24 table files to it changes nothing
 *   on SQLite;
 * - the pg-core twin, with DDL printed from its own config, is created on a real PostgreSQL and
 *   answers drizzle-orm/bun-sql with the same row types (epoch-ms times as numbers, not int8 strings),
 *   its keys refusing what SQLite's refuse;
 * - the inferred row types keep NOT NULL and number types on both twins (checked by tsc through
 *   the `@ts-expect-error` lines below: an unneeded one fails the type check).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql, type ColumnBuilderBase, type NotNull, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import { bigint, getTableConfig as pgConfig, index as pgIndex, pgTable, primaryKey as pgPk, text as pgText, uniqueIndex as pgUnique, PgDialect, type PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as liteConfig, index as liteIndex, integer, primaryKey as litePk, sqliteTable, text as liteText, uniqueIndex as liteUnique, SQLiteSyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { tables } from "@ndc/store";
import { findPgBin, start, stop } from "../../scripts/pg-throwaway.mjs";

// --- the prototype: a vocabulary named for what is stored, each kind knowing both builders ------
const KINDS = {
  text: { lite: (n: string) => liteText(n), pg: (n: string) => pgText(n) },
  /** epoch milliseconds, counts, seqs: SQLite's INTEGER is 64-bit, pg-core's integer is not. */
  int: { lite: (n: string) => integer(n), pg: (n: string) => bigint(n, { mode: "number" }) },
};
type Kind = keyof typeof KINDS;
interface ColumnSpec {
  kind: Kind;
  name: string;
  notNull?: true;
  primaryKey?: true;
}
interface IndexSpec<K extends string> {
  name: string;
  on: K[];
  unique?: true;
  where?: string;
}
type Built<B, C> = C extends { notNull: true } | { primaryKey: true } ? NotNull<B & ColumnBuilderBase> : B;

function defineTable<const S extends Record<string, ColumnSpec>>(name: string, spec: S, extras: { primaryKey?: (keyof S & string)[]; indexes?: IndexSpec<keyof S & string>[] } = {}) {
  type LiteColumns = { [K in keyof S]: Built<ReturnType<(typeof KINDS)[S[K]["kind"]]["lite"]>, S[K]> };
  type PgColumns = { [K in keyof S]: Built<ReturnType<(typeof KINDS)[S[K]["kind"]]["pg"]>, S[K]> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const build = (side: "lite" | "pg"): Record<string, any> => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const out: Record<string, any> = {};
    for (const [key, c] of Object.entries(spec)) {
      let col = KINDS[c.kind][side](c.name);
      if (c.primaryKey) col = col.primaryKey();
      else if (c.notNull) col = col.notNull();
      out[key] = col;
    }
    return out;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const extrasOf = (pk: any, unique: any, plain: any) => (t: any) => [
    ...(extras.primaryKey ? [pk({ columns: extras.primaryKey.map((c) => t[c]) })] : []),
    ...(extras.indexes ?? []).map((i) => {
      const built = (i.unique ? unique : plain)(i.name).on(...i.on.map((c) => t[c]));
      return i.where ? built.where(sql.raw(i.where)) : built;
    }),
  ];
  return {
    sqlite: sqliteTable(name, build("lite") as LiteColumns, extrasOf(litePk, liteUnique, liteIndex)),
    pg: pgTable(name, build("pg") as PgColumns, extrasOf(pgPk, pgUnique, pgIndex)),
  };
}

/** The pg-core twin's DDL, printed from its own config (what the PostgreSQL baseline would be made from). */
function pgDdl(table: PgTable): string[] {
  const c = pgConfig(table);
  const dialect = new PgDialect();
  const where = (w: SQL | undefined) => (w ? ` WHERE ${dialect.sqlToQuery(w).sql}` : "");
  const pk = c.primaryKeys.map((k) => `, PRIMARY KEY (${k.columns.map((col) => `"${col.name}"`).join(", ")})`).join("");
  const columns = c.columns.map((col) => `"${col.name}" ${col.getSQLType()}${col.primary ? " PRIMARY KEY" : col.notNull ? " NOT NULL" : ""}`);
  return [
    `CREATE TABLE "${c.name}" (${columns.join(", ")}${pk})`,
    ...c.indexes.map((i) => `CREATE ${i.config.unique ? "UNIQUE " : ""}INDEX "${i.config.name}" ON "${c.name}" (${i.config.columns.map((col) => `"${(col as { name: string }).name}"`).join(", ")})${where(i.config.where)}`),
  ];
}

// --- two real tables, written once --------------------------------------------------------------
const journal = defineTable(
  "actor_journal",
  {
    kind: { kind: "text", name: "kind", notNull: true },
    key: { kind: "text", name: "key", notNull: true },
    seq: { kind: "int", name: "seq", notNull: true },
    payload: { kind: "text", name: "payload", notNull: true },
    committedAt: { kind: "int", name: "committed_at", notNull: true },
  },
  { primaryKey: ["kind", "key", "seq"] },
);

const operations = defineTable(
  "operations",
  {
    operationId: { kind: "text", name: "operation_id", primaryKey: true },
    kind: { kind: "text", name: "kind", notNull: true },
    clientId: { kind: "text", name: "client_id" },
    correlationId: { kind: "text", name: "correlation_id" },
    trxId: { kind: "text", name: "trx_id" },
    fingerprint: { kind: "text", name: "fingerprint", notNull: true },
    orderId: { kind: "text", name: "order_id" },
    ownerClientId: { kind: "text", name: "owner_client_id" },
    ownerAgencyId: { kind: "text", name: "owner_agency_id" },
    phase: { kind: "text", name: "phase", notNull: true },
    status: { kind: "text", name: "status", notNull: true },
    plan: { kind: "text", name: "plan" },
    errorCode: { kind: "text", name: "error_code" },
    lockOwner: { kind: "text", name: "lock_owner" },
    lockedAt: { kind: "int", name: "locked_at" },
    responseStatus: { kind: "int", name: "response_status" },
    responseBody: { kind: "text", name: "response_body" },
    createdAt: { kind: "int", name: "created_at", notNull: true },
    updatedAt: { kind: "int", name: "updated_at", notNull: true },
    completedAt: { kind: "int", name: "completed_at" },
  },
  {
    indexes: [
      { name: "operations_request", on: ["clientId", "correlationId", "trxId", "kind"], unique: true, where: "client_id IS NOT NULL" },
      { name: "operations_open", on: ["updatedAt"], where: "status = 'running'" },
      { name: "operations_order", on: ["orderId"] },
    ],
  },
);

// The row types, both twins: NOT NULL kept, times numbers (tsc fails on an unneeded expect-error).
type JournalRow = typeof journal.sqlite.$inferSelect;
type PgJournalRow = typeof journal.pg.$inferSelect;
// @ts-expect-error kind is NOT NULL on SQLite
export const nullKind: JournalRow = { kind: null, key: "K", seq: 1, payload: "{}", committedAt: 1 };
// @ts-expect-error committed_at is a number on PostgreSQL too, not int8 text
export const textTime: PgJournalRow = { kind: "order", key: "K", seq: 1, payload: "{}", committedAt: "1" };
export const nullableLock: typeof operations.pg.$inferSelect.lockedAt = null;

/** What a sqlite-core table declares, comparable between the hand-written table and the twin. */
function liteShape(t: SQLiteTable) {
  const c = liteConfig(t);
  const dialect = new SQLiteSyncDialect();
  return {
    name: c.name,
    columns: c.columns.map((col) => ({ name: col.name, type: col.getSQLType(), notNull: col.notNull, primary: col.primary })).sort((a, b) => a.name.localeCompare(b.name)),
    primaryKeys: c.primaryKeys.map((k) => k.columns.map((col) => col.name)),
    indexes: c.indexes
      .map((i) => ({
        name: i.config.name,
        unique: i.config.unique,
        on: i.config.columns.map((col) => (col as { name: string }).name),
        where: i.config.where ? dialect.sqlToQuery(i.config.where).sql : null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

test("the sqlite-core twins are the tables the code uses today", () => {
  expect(liteShape(journal.sqlite)).toEqual(liteShape(tables.actorJournal));
  expect(liteShape(operations.sqlite)).toEqual(liteShape(tables.operations));
});

const bin = findPgBin();
if (!bin) console.log("pg-table-factory: PostgreSQL part skipped, no PostgreSQL binaries (apt-get install -y postgresql, or PG_BIN)");

describe.skipIf(!bin)("the pg-core twins on PostgreSQL", () => {
  let cluster: { dir: string; url: string };
  let client: InstanceType<typeof Bun.SQL>;
  beforeAll(async () => {
    cluster = await start();
    client = new Bun.SQL(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    if (cluster) stop(cluster.dir);
  }, 60_000);

  test("made from their own config, they answer drizzle-orm/bun-sql with the same row types and refuse the same rows", async () => {
    for (const statement of [...pgDdl(journal.pg), ...pgDdl(operations.pg)]) await client.unsafe(statement);
    const db = drizzle({ client });
    const now = Date.now(); // about 1.8e12: past int4, where a plain pg-core integer would overflow
    await db.insert(journal.pg).values({ kind: "order", key: "ORD1", seq: 1, payload: "{}", committedAt: now });
    expect(await db.select().from(journal.pg)).toEqual([{ kind: "order", key: "ORD1", seq: 1, payload: "{}", committedAt: now }]);
    const again = await db.insert(journal.pg).values({ kind: "order", key: "ORD1", seq: 1, payload: "{}", committedAt: now }).then(() => "", (e: unknown) => String((e as { cause?: { errno?: string } }).cause?.errno));
    expect(again).toBe("23505");

    const op = { kind: "order_create", fingerprint: "f", phase: "begun", status: "running", createdAt: now, updatedAt: now };
    await db.insert(operations.pg).values([
      { ...op, operationId: "OP1", clientId: "C1", correlationId: "X", trxId: "T" },
      // The partial unique index leaves rows without a client alone, as on SQLite.
      { ...op, operationId: "OP2", clientId: null, correlationId: "X", trxId: "T" },
      { ...op, operationId: "OP3", clientId: null, correlationId: "X", trxId: "T" },
    ]);
    const second = await db.insert(operations.pg).values({ ...op, operationId: "OP4", clientId: "C1", correlationId: "X", trxId: "T" }).then(() => "", (e: unknown) => String((e as { cause?: { errno?: string } }).cause?.errno));
    expect(second).toBe("23505");
    const [row] = await db.select({ lockedAt: operations.pg.lockedAt, createdAt: operations.pg.createdAt }).from(operations.pg).limit(1);
    expect(row).toEqual({ lockedAt: null, createdAt: now });

    const indexes = await client`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'operations' ORDER BY indexname`;
    expect(indexes.map((i: { indexname: string }) => i.indexname)).toEqual(["operations_open", "operations_order", "operations_pkey", "operations_request"]);
    expect(indexes.find((i: { indexname: string }) => i.indexname === "operations_request").indexdef).toContain("WHERE (client_id IS NOT NULL)");
  }, 60_000);
});
