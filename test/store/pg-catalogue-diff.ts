/**
 * The catalogue comparison of issue 23 item 2: a migrated SQLite and a migrated PostgreSQL
 * described alike (tables, columns, keys, unique constraints, CHECKs, foreign keys, indexes with
 * their WHERE, triggers, seeded rows), every difference as one line, the intended ones left out.
 */
import { sql } from "drizzle-orm";
import type { Store } from "@ndc/store";
import { PG_TYPES, pgCheck, sqliteCatalogue, type SqliteTable } from "../../scripts/pg-baseline";
import { pgCatalogue, pgTriggers, type Trigger } from "./pg-schema-support";

type Pg = InstanceType<typeof Bun.SQL>;

/*
 * INTENDED: the differences the comparison allows, each applied below where it is compared.
 * 1. Types: SQLite INTEGER / TEXT / BLOB / REAL are PostgreSQL bigint / text COLLATE "C" /
 *    bytea / double precision (PG_TYPES); every INTEGER is bigint, booleans included (0/1, as on
 *    SQLite); "C" is SQLite's BINARY (byte order) whatever the database's locale.
 * 2. `json_valid(x)` in a CHECK is `(x)::jsonb IS NOT NULL` (pgCheck): PostgreSQL 15 has no
 *    boolean JSON test, so an invalid document fails the cast (22P02) rather than the CHECK.
 * 3. SQLite's own tables (sqlite_sequence) and schema_migrations (the runner's) are not compared;
 *    WITHOUT ROWID has no PostgreSQL counterpart (a heap plus the primary key's index).
 * 4. CHECKs, defaults and index WHERE clauses are compared as PostgreSQL prints them: SQLite's
 *    text is rendered through PostgreSQL in a scratch schema (`sqlite_rendered`) first.
 * 5. Triggers: PostgreSQL has every SQLite trigger (name, table, timing, event; all FOR EACH ROW,
 *    as SQLite's are), plus `<table>_no_truncate` (BEFORE TRUNCATE, statement) beside each
 *    `<table>_no_update` (SQLite has no TRUNCATE to refuse), plus `<table>_rowid` (BEFORE INSERT)
 *    on each table whose primary key is an INTEGER PRIMARY KEY (SQLite's rowid alias numbers a
 *    NULL by itself; a bigint key does not).
 */
const RENDERED = "sqlite_rendered";

/** SQLite's triggers, from their CREATE text. */
export async function sqliteTriggers(store: Store): Promise<Trigger[]> {
  const rows = (await store.db.all(sql`SELECT name, tbl_name AS tbl, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)) as { name: string; tbl: string; sql: string }[];
  return rows.map((r) => {
    const m = /\b(BEFORE|AFTER)\s+(INSERT|UPDATE|DELETE)\b/i.exec(r.sql);
    if (!m) throw new Error(`trigger ${r.name}: no timing/event in ${r.sql}`);
    return { name: r.name, table: r.tbl, timing: m[1]!.toUpperCase() as Trigger["timing"], event: m[2]!.toUpperCase() as Trigger["event"] };
  });
}

/**
 * SQLite's catalogue with its expressions printed by PostgreSQL: each table is created in a
 * scratch schema with PostgreSQL's types, then given SQLite's defaults, CHECKs (json_valid
 * rewritten) and partial index WHERE clauses, and read back as PostgreSQL prints them.
 */
async function rendered(pg: Pg, tables: SqliteTable[]): Promise<SqliteTable[]> {
  await pg.unsafe(`DROP SCHEMA IF EXISTS ${RENDERED} CASCADE; CREATE SCHEMA ${RENDERED}`);
  try {
    for (const t of tables) {
      const ddl = [`CREATE TABLE ${RENDERED}.${t.name} (${t.columns.map((c) => `${c.name} ${PG_TYPES[c.type]}`).join(", ")});`];
      for (const c of t.columns) if (c.default !== null) ddl.push(`ALTER TABLE ${RENDERED}.${t.name} ALTER COLUMN ${c.name} SET DEFAULT ${c.default};`);
      for (const c of t.checks) ddl.push(`ALTER TABLE ${RENDERED}.${t.name} ADD CHECK (${pgCheck(c)});`);
      for (const ix of t.indexes) if (ix.where) ddl.push(`CREATE INDEX ${ix.name} ON ${RENDERED}.${t.name} (${t.columns[0]!.name}) WHERE ${ix.where};`);
      await pg.unsafe(ddl.join("\n"));
    }
    const printed = new Map((await pgCatalogue(pg, RENDERED)).map((t) => [t.name, t]));
    return tables.map((t) => {
      const p = printed.get(t.name)!;
      const where = new Map(p.indexes.map((ix) => [ix.name, ix.where]));
      return {
        ...t,
        columns: t.columns.map((c) => ({ ...c, type: PG_TYPES[c.type]!, default: p.columns.find((x) => x.name === c.name)!.default })),
        checks: p.checks,
        indexes: t.indexes.map((ix) => ({ ...ix, where: ix.where === null ? null : where.get(ix.name)! })),
      };
    });
  } finally {
    await pg.unsafe(`DROP SCHEMA IF EXISTS ${RENDERED} CASCADE`);
  }
}

const sorted = <T>(xs: T[]) => [...xs].map((x) => JSON.stringify(x)).sort();

/** One line per difference between two lists keyed by `key`. */
function diffBy<T>(what: string, key: (x: T) => string, a: T[], b: T[]): string[] {
  const out: string[] = [];
  const am = new Map(a.map((x) => [key(x), x]));
  const bm = new Map(b.map((x) => [key(x), x]));
  for (const [k, x] of am) {
    const y = bm.get(k);
    if (!y) out.push(`${what} ${k}: missing on PostgreSQL`);
    else if (JSON.stringify(x) !== JSON.stringify(y)) out.push(`${what} ${k}: SQLite ${JSON.stringify(x)} <> PostgreSQL ${JSON.stringify(y)}`);
  }
  for (const k of bm.keys()) if (!am.has(k)) out.push(`${what} ${k}: missing on SQLite`);
  return out;
}

/** The triggers PostgreSQL must have: SQLite's, plus the intended extras (INTENDED 5). */
function expectedPgTriggers(tables: SqliteTable[], triggers: Trigger[]): Trigger[] {
  const out = [...triggers];
  for (const t of triggers) if (t.name === `${t.table}_no_update`) out.push({ name: `${t.table}_no_truncate`, table: t.table, timing: "BEFORE", event: "TRUNCATE" });
  for (const t of tables) if (t.rowid) out.push({ name: `${t.name}_rowid`, table: t.name, timing: "BEFORE", event: "INSERT" });
  return out;
}

/** Rows a fresh migration leaves, table by table, numbers as numbers. */
async function seeded(read: (table: string) => Promise<Record<string, unknown>[]>, tables: string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const rows = await read(t);
    if (rows.length) out[t] = sorted(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]))));
  }
  return out;
}

/** Every difference not listed in INTENDED above between a migrated SQLite store and a migrated PostgreSQL database. */
export async function catalogueDifferences(sqlite: Store, pg: Pg): Promise<string[]> {
  const lite = await rendered(pg, await sqliteCatalogue(sqlite));
  const post = await pgCatalogue(pg);
  const out: string[] = diffBy("table", (t) => t.name, lite.map((t) => ({ name: t.name })), post.map((t) => ({ name: t.name })));
  const postByName = new Map(post.map((t) => [t.name, t]));
  for (const l of lite) {
    const p = postByName.get(l.name);
    if (!p) continue;
    const at = `${l.name}:`;
    out.push(...diffBy(`${at} column`, (c) => c.name, l.columns, p.columns));
    if (JSON.stringify(l.primaryKey) !== JSON.stringify(p.primaryKey)) out.push(`${at} primary key (${l.primaryKey}) <> (${p.primaryKey})`);
    out.push(...diffBy(`${at} unique`, (u) => u.join(","), l.uniques, p.uniques));
    out.push(...diffBy(`${at} check`, (c) => c, l.checks, p.checks));
    out.push(...diffBy(`${at} foreign key`, (f) => JSON.stringify(f), l.foreignKeys, p.foreignKeys));
    out.push(...diffBy(`${at} index`, (ix) => ix.name, l.indexes, p.indexes));
  }
  const wantTriggers = expectedPgTriggers(lite, await sqliteTriggers(sqlite));
  const haveTriggers = await pgTriggers(pg);
  for (const t of haveTriggers) if (!t.forEachRow && t.event !== "TRUNCATE") out.push(`trigger ${t.name}: FOR EACH STATEMENT, SQLite's are row triggers`);
  out.push(...diffBy("trigger", (t) => `${t.name} ${t.event}`, wantTriggers, haveTriggers.map(({ name, table, timing, event }) => ({ name, table, timing, event }))));
  const names = lite.map((t) => t.name).filter((n) => postByName.has(n));
  const liteRows = await seeded(async (t) => (await sqlite.db.all(sql.raw(`SELECT * FROM "${t}"`))) as Record<string, unknown>[], names);
  const pgRows = await seeded(async (t) => (await pg.unsafe(`SELECT * FROM "${t}"`)) as Record<string, unknown>[], names);
  if (JSON.stringify(liteRows) !== JSON.stringify(pgRows)) out.push(`seeded rows: SQLite ${JSON.stringify(liteRows)} <> PostgreSQL ${JSON.stringify(pgRows)}`);
  return out;
}
