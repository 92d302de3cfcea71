/**
 * A PostgreSQL Store for the portability tests of issue 23 (decision 0041), standing in until the
 * real driver lands (the coordinator switches these tests to it): the domain's sqlite-core
 * builders' SQL run on PostgreSQL through Bun.SQL as that driver does it: placeholders `?` -> `$n`,
 * upsert conflict targets unqualified, int8 handed back as numbers. Builder queries answer arrays
 * (drizzle maps them), raw `db.all(sql)` answers objects, as bun:sqlite does.
 */
import { afterAll } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import type { SQL as DrizzleSQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Store, StoreDb } from "@ndc/store";
import { findPgBin } from "../../scripts/pg-throwaway.mjs";

const SCRIPT = join(import.meta.dir, "../../scripts/pg-throwaway.mjs");

/** The text PostgreSQL reads from what sqlite-core built. */
export function pgText(q: string): string {
  let i = 0;
  return q.replace(/\?/g, () => `$${++i}`).replace(/on conflict \(([^)]*)\)/g, (_m, cols: string) => `on conflict (${cols.replace(/"[^"]+"\./g, "")})`);
}

const num = (v: unknown) => (typeof v === "bigint" ? Number(v) : v);

type Runner = Pick<SQL, "unsafe">;

function dbOver(pg: Runner): StoreDb {
  const db = drizzle(async (q, params, method) => {
    const rows = ((await pg.unsafe(pgText(q), params as unknown[]).values()) as unknown[][]).map((r) => r.map(num));
    return { rows: method === "get" ? (rows[0] as never) : rows };
  });
  // Raw SQL (no fields to map): rows as objects, keyed by the names PostgreSQL answers.
  const raw = async (query: DrizzleSQL) => {
    const { sql, params } = (db as unknown as { dialect: { sqlToQuery(s: DrizzleSQL): { sql: string; params: unknown[] } } }).dialect.sqlToQuery(query.getSQL());
    const rows = (await pg.unsafe(pgText(sql), params)) as Record<string, unknown>[];
    return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, num(v)])));
  };
  Object.assign(db, { all: raw, get: async (q: DrizzleSQL) => (await raw(q))[0], run: async (q: DrizzleSQL) => void (await raw(q)) });
  return db as unknown as StoreDb;
}

/** A Store with dialect "postgres" over one pool: each write its own transaction. */
export function pgStore(pg: SQL): Store {
  const commits = { transactions: 0, commits: 0 };
  return {
    driver: "libsql",
    dialect: "postgres",
    db: dbOver(pg),
    commits,
    exec: async (text) => void (await pg.unsafe(text).simple()),
    write: (fn) =>
      pg.begin(async (tx) => {
        const out = await fn(dbOver(tx), { exec: async (text) => void (await tx.unsafe(text).simple()) });
        commits.transactions++;
        commits.commits++;
        return out;
      }) as never,
    close: () => pg.close(),
  } as Store;
}

/**
 * A throwaway cluster for this file (scripts/pg-throwaway.mjs), stopped after it; or the one
 * GATEWAY_DATABASE_URL names when that is postgres:// (CI's). Undefined when PostgreSQL is not
 * installed: the caller skips, saying so.
 */
export async function throwawayPostgres(): Promise<string | undefined> {
  const given = process.env.GATEWAY_DATABASE_URL;
  if (given?.startsWith("postgres")) return given;
  if (!findPgBin()) return undefined;
  const proc = Bun.spawn([process.execPath, SCRIPT, "start"], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const url = /^GATEWAY_DATABASE_URL=(postgres:\/\/\S+)$/m.exec(out)?.[1];
  const dir = /^PG_THROWAWAY_DIR=(\S+)$/m.exec(out)?.[1];
  if (code !== 0 || !url || !dir) throw new Error(`pg-throwaway start failed (${code}): ${err}${out}`);
  afterAll(() => {
    if (existsSync(dir)) Bun.spawnSync([process.execPath, SCRIPT, "stop", dir]);
  });
  return url;
}

const PG_TYPE: Record<string, string> = { integer: "bigint", text: "text", blob: "bytea", real: "double precision", numeric: "numeric" };

/**
 * CREATE TABLE on PostgreSQL for a sqlite-core table: the same names, the types mapped as the
 * PostgreSQL schema maps them (INTEGER -> bigint, TEXT -> text, BLOB -> bytea, REAL -> double
 * precision), NOT NULL and primary keys kept. No triggers, checks or indexes: enough to run the
 * domain's statements on, not the schema (that is the migrations' and the catalogue test's).
 */
export function pgCreateTable(table: SQLiteTable): string {
  const c = getTableConfig(table);
  const extra: string[] = [];
  const cols = c.columns.map((col) => {
    const type = PG_TYPE[col.getSQLType().toLowerCase()];
    if (!type) throw new Error(`no PostgreSQL type for ${c.name}.${col.name}: ${col.getSQLType()}`);
    const def = col.hasDefault && (typeof col.default === "number" || typeof col.default === "string") ? ` DEFAULT ${JSON.stringify(col.default).replace(/"/g, "'")}` : "";
    if (!(col as { autoIncrement?: boolean }).autoIncrement) return `"${col.name}" ${type}${col.notNull ? " NOT NULL" : ""}${def}${col.primary ? " PRIMARY KEY" : ""}`;
    // sqlite-core inserts NULL for an omitted AUTOINCREMENT key (SQLite then numbers the row);
    // PostgreSQL needs a BEFORE INSERT trigger to do the same (the real schema must too).
    const fn = `"${c.name}_${col.name}_fill"`;
    extra.push(
      `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."${col.name}" IS NULL THEN NEW."${col.name}" := nextval(pg_get_serial_sequence('"${c.name}"', '${col.name}')); END IF; RETURN NEW; END $$`,
      `CREATE TRIGGER ${fn} BEFORE INSERT ON "${c.name}" FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    );
    return `"${col.name}" bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY`;
  });
  for (const pk of c.primaryKeys) cols.push(`PRIMARY KEY (${pk.columns.map((k) => `"${k.name}"`).join(", ")})`);
  return [`DROP TABLE IF EXISTS "${c.name}" CASCADE`, `CREATE TABLE "${c.name}" (${cols.join(", ")})`, ...extra].join(";\n");
}
