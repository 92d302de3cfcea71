#!/usr/bin/env bun
/**
 * The PostgreSQL baseline (issue 23, decision 0041), printed from SQLite's own catalogue so the
 * SQLite migrations stay the one truth for the schema:
 *
 *   bun scripts/pg-baseline.ts          rewrites the generated part of schemas/migrations-postgres/0067_baseline.sql
 *   bun scripts/pg-baseline.ts --check  exits 1 if the committed file's generated part differs
 *
 * It migrates an in-memory SQLite with the migrations the baseline covers (0001-0067, never a
 * later one, so its output stays the same when 0068 lands) and reads what SQLite holds:
 * sqlite_master, PRAGMA table_xinfo, index_list / index_xinfo, foreign_key_list, the CHECKs and
 * the partial indexes' WHERE from the CREATE text, and the rows the migrations seeded. Types map
 * INTEGER -> bigint (every one: booleans stay 0/1), TEXT -> text COLLATE "C" (SQLite's byte
 * order), BLOB -> bytea, REAL -> double precision; `json_valid(x)` in a CHECK becomes `(x)::jsonb IS NOT NULL` (PostgreSQL 15 has no
 * boolean JSON test; an invalid document fails the cast with 22P02 instead of the CHECK's 23514).
 *
 * Triggers are not generated: their plpgsql is written by hand below the file's marker line, and
 * everything from that line on is kept as it is. test/store/pg-catalogue.test.ts compares both
 * engines' migrated catalogues, and test/store/pg-baseline.test.ts runs `--check`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrate, openStore, readMigrations, MIGRATIONS_DIR, type Store } from "@ndc/store";

/** The last SQLite migration the baseline stands for; PostgreSQL's own files start after it. */
export const BASELINE = "0067";
export const PG_MIGRATIONS_DIR = join(import.meta.dir, "../schemas/migrations-postgres");
export const BASELINE_FILE = join(PG_MIGRATIONS_DIR, `${BASELINE}_baseline.sql`);
/** Everything from this line on is hand-written (the triggers) and kept by the generator. */
export const MARKER = "-- ==== hand-written below this line (scripts/pg-baseline.ts keeps it): triggers in plpgsql ====";

/**
 * SQLite's declared type -> PostgreSQL's column type. Every INTEGER is 64-bit on SQLite: bigint,
 * never int4. Text compares byte by byte on SQLite (its BINARY collation); `COLLATE "C"` keeps
 * that order (ORDER BY, keyset pages, unique keys) whatever locale the airline's database has.
 */
export const PG_TYPES: Record<string, string> = { INTEGER: "bigint", TEXT: 'text COLLATE "C"', BLOB: "bytea", REAL: "double precision" };

/** The SQLite migrations the baseline covers, in order. */
export function coveredMigrations() {
  return readMigrations(MIGRATIONS_DIR).filter((m) => m.version.slice(0, 4) <= BASELINE);
}

/** `json_valid(x)` (SQLite) as PostgreSQL writes the same CHECK. */
export function pgCheck(expr: string): string {
  return expr.replace(/\bjson_valid\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/g, "($1::jsonb IS NOT NULL)");
}

interface XColumn {
  cid: number;
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
  hidden: number;
}

/** What SQLite's catalogue says about one table, in the shape both the generator and the catalogue test read. */
export interface SqliteTable {
  name: string;
  columns: { name: string; type: string; notNull: boolean; default: string | null }[];
  primaryKey: string[];
  uniques: string[][];
  checks: string[];
  foreignKeys: { columns: string[]; table: string; to: string[] }[];
  indexes: { name: string; columns: string[]; unique: boolean; where: string | null }[];
  /** The INTEGER PRIMARY KEY column (SQLite's rowid alias: NULL on insert takes the next number), if any. */
  rowid: string | null;
  withoutRowid: boolean;
}

const q = (name: string) => JSON.stringify(name);

async function all<T>(store: Store, text: string): Promise<T[]> {
  return (await store.db.all(text)) as T[];
}

/** The CREATE text without comments, with strings kept, for the small scans below. */
function stripComments(text: string): string {
  return text.replace(/--[^\n]*/g, "").replace(/\/\*[\s\S]*?\*\//g, "");
}

/** The text inside the parentheses opening at `open` (which holds "("), quotes respected. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "'") i = text.indexOf("'", i + 1);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced parentheses in: ${text}`);
}

/** Every CHECK of a CREATE TABLE (column or table constraint: PostgreSQL stores both alike), whitespace folded. */
export function checksOf(createTable: string): string[] {
  const text = stripComments(createTable);
  const out: string[] = [];
  const re = /\bCHECK\s*\(/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const open = m.index + m[0].length - 1;
    const body = balanced(text, open);
    out.push(body.replace(/\s+/g, " ").trim());
    re.lastIndex = open + body.length + 2;
  }
  return out;
}

/** The WHERE of a partial index's CREATE INDEX text, whitespace folded. */
export function whereOf(createIndex: string | null): string | null {
  if (!createIndex) return null;
  const m = /\)\s*WHERE\s+([\s\S]+)$/i.exec(stripComments(createIndex).trim());
  return m ? m[1]!.replace(/\s+/g, " ").replace(/;$/, "").trim() : null;
}

/** Reads one migrated SQLite's catalogue: every table but SQLite's own and the runner's. */
export async function sqliteCatalogue(store: Store): Promise<SqliteTable[]> {
  const tables = await all<{ name: string; sql: string }>(
    store,
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name",
  );
  const out: SqliteTable[] = [];
  for (const t of tables) {
    const xcols = (await all<XColumn>(store, `PRAGMA table_xinfo(${q(t.name)})`)).filter((c) => c.hidden === 0);
    for (const c of xcols) if (!PG_TYPES[c.type.toUpperCase()]) throw new Error(`${t.name}.${c.name}: no PostgreSQL type for ${c.type}`);
    const primaryKey = xcols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const withoutRowid = /\)\s*WITHOUT\s+ROWID\s*;?\s*$/i.test(stripComments(t.sql));
    const rowid = !withoutRowid && primaryKey.length === 1 && xcols.find((c) => c.name === primaryKey[0])!.type.toUpperCase() === "INTEGER" ? primaryKey[0]! : null;
    const indexList = await all<{ name: string; unique: number; origin: string; partial: number }>(store, `PRAGMA index_list(${q(t.name)})`);
    const uniques: string[][] = [];
    const indexes: SqliteTable["indexes"] = [];
    for (const ix of [...indexList].sort((a, b) => a.name.localeCompare(b.name))) {
      const cols = (await all<{ seqno: number; name: string | null; key: number; desc: number }>(store, `PRAGMA index_xinfo(${q(ix.name)})`))
        .filter((c) => c.key === 1)
        .sort((a, b) => a.seqno - b.seqno)
        .map((c) => {
          if (c.name === null) throw new Error(`index ${ix.name}: expression indexes are not mapped`);
          return c.desc ? `${c.name} DESC` : c.name;
        });
      if (ix.origin === "u") uniques.push(cols);
      else if (ix.origin === "c") {
        const [row] = await all<{ sql: string | null }>(store, `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ${`'${ix.name}'`}`);
        indexes.push({ name: ix.name, columns: cols, unique: ix.unique === 1, where: whereOf(row?.sql ?? null) });
      }
    }
    const fkRows = await all<{ id: number; seq: number; table: string; from: string; to: string; on_update: string; on_delete: string }>(
      store,
      `PRAGMA foreign_key_list(${q(t.name)})`,
    );
    const foreignKeys: SqliteTable["foreignKeys"] = [];
    for (const id of [...new Set(fkRows.map((r) => r.id))].sort((a, b) => a - b)) {
      const rows = fkRows.filter((r) => r.id === id).sort((a, b) => a.seq - b.seq);
      if (rows.some((r) => r.on_update !== "NO ACTION" || r.on_delete !== "NO ACTION")) throw new Error(`${t.name}: only NO ACTION foreign keys are mapped`);
      foreignKeys.push({ columns: rows.map((r) => r.from), table: rows[0]!.table, to: rows.map((r) => r.to) });
    }
    foreignKeys.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    out.push({
      name: t.name,
      columns: xcols.map((c) => ({ name: c.name, type: c.type.toUpperCase(), notNull: c.notnull === 1 || c.pk > 0, default: c.dflt_value })),
      primaryKey,
      uniques,
      checks: checksOf(t.sql),
      foreignKeys,
      indexes,
      rowid,
      withoutRowid,
    });
  }
  return out;
}

/** The rows a fresh migration leaves (registry_version's first row), as INSERTs, in a stable order. */
async function seedRows(store: Store, tables: SqliteTable[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of tables) {
    const cols = t.columns.map((c) => c.name);
    const rows = await all<Record<string, unknown>>(store, `SELECT ${cols.map(q).join(", ")} FROM ${q(t.name)} ORDER BY ${cols.map((_, i) => i + 1).join(", ")}`);
    for (const r of rows) {
      const values = cols.map((c) => {
        const v = r[c];
        if (v === null) return "NULL";
        if (typeof v === "number" || typeof v === "bigint") return String(v);
        if (typeof v === "string") return `'${v.replace(/'/g, "''")}'`;
        throw new Error(`${t.name}.${c}: seed value of type ${typeof v} is not mapped`);
      });
      out.push(`INSERT INTO ${t.name} (${cols.join(", ")}) VALUES (${values.join(", ")});`);
    }
  }
  return out;
}

function createTable(t: SqliteTable): string {
  const lines = t.columns.map((c) => {
    let line = `  ${c.name} ${PG_TYPES[c.type]}`;
    if (c.notNull) line += " NOT NULL";
    if (c.default !== null) line += ` DEFAULT ${c.default}`;
    return line;
  });
  if (t.primaryKey.length) lines.push(`  PRIMARY KEY (${t.primaryKey.join(", ")})`);
  for (const u of t.uniques) lines.push(`  UNIQUE (${u.join(", ")})`);
  for (const c of t.checks) lines.push(`  CHECK (${pgCheck(c)})`);
  return `CREATE TABLE ${t.name} (\n${lines.join(",\n")}\n);`;
}

/** The generated part of the baseline: everything above the marker line. */
export async function generatedPart(): Promise<string> {
  const store = await openStore("file::memory:");
  try {
    const covered = coveredMigrations();
    await migrate(store, covered);
    const tables = await sqliteCatalogue(store);
    const parts: string[] = [
      `-- PostgreSQL baseline: the schema SQLite has after migrations 0001-${BASELINE} (decision 0041).`,
      "-- GENERATED above the marker line by `bun scripts/pg-baseline.ts` from SQLite's catalogue: do not edit",
      "-- that part by hand. A later schema change is one file per engine, same number, same commit:",
      "-- schemas/migrations/NNNN_x.sql and schemas/migrations-postgres/NNNN_x.sql.",
      "--",
      "-- The runner (packages/store/src/migrate.ts) records each version listed as `-- covers` in",
      "-- schema_migrations when it applies this file, so both engines list the same versions.",
      ...covered.map((m) => `-- covers ${m.version}`),
      "",
    ];
    for (const t of tables) parts.push(createTable(t), "");
    for (const t of tables) for (const ix of t.indexes) {
      parts.push(`CREATE ${ix.unique ? "UNIQUE " : ""}INDEX ${ix.name} ON ${t.name} (${ix.columns.join(", ")})${ix.where ? ` WHERE ${ix.where}` : ""};`);
    }
    parts.push("");
    // After every table: a foreign key needs the table it names.
    for (const t of tables) for (const fk of t.foreignKeys) {
      parts.push(`ALTER TABLE ${t.name} ADD FOREIGN KEY (${fk.columns.join(", ")}) REFERENCES ${fk.table} (${fk.to.join(", ")});`);
    }
    parts.push("", ...(await seedRows(store, tables)), "");
    return parts.join("\n");
  } finally {
    await store.close();
  }
}

/** The committed file's hand-written part (from the marker line on). */
export function handWrittenPart(file = BASELINE_FILE): string {
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(MARKER);
  if (at < 0) throw new Error(`${file}: no marker line (${MARKER})`);
  return text.slice(at);
}

if (import.meta.main) {
  const generated = await generatedPart();
  const current = readFileSync(BASELINE_FILE, "utf8");
  const at = current.indexOf(MARKER);
  if (at < 0) throw new Error(`${BASELINE_FILE}: no marker line (${MARKER})`);
  if (process.argv.includes("--check")) {
    if (current.slice(0, at) !== generated) {
      console.error(`${BASELINE_FILE}: the generated part differs from SQLite's catalogue; run bun scripts/pg-baseline.ts`);
      process.exit(1);
    }
    console.log(`${BASELINE_FILE}: up to date`);
  } else {
    writeFileSync(BASELINE_FILE, generated + current.slice(at));
    console.log(`wrote ${BASELINE_FILE}`);
  }
}
