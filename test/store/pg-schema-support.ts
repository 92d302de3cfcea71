/**
 * What the PostgreSQL schema tests share (issue 23, decision 0041): a throwaway cluster per test
 * file, fresh databases in it, the real store on each (openStore) for the migration runner, and
 * PostgreSQL's catalogue read into the shape scripts/pg-baseline.ts reads SQLite's in.
 */
import { join } from "node:path";
import { openStore, type Store } from "@ndc/store";
import { findPgBin } from "../../scripts/pg-throwaway.mjs";
import type { SqliteTable } from "../../scripts/pg-baseline";

const SCRIPT = join(import.meta.dir, "../../scripts/pg-throwaway.mjs");

/** The line a skipped file prints, or null when PostgreSQL is installed. */
export function pgMissing(file: string): string | null {
  return findPgBin() ? null : `${file}: skipped, no PostgreSQL binaries (apt-get install -y postgresql, or PG_BIN)`;
}

export interface Cluster {
  url: string;
  dir: string;
  /** A new empty database on the cluster; its URL. */
  database(name: string): Promise<string>;
  stop(): void;
}

/** A throwaway cluster stopped by `stop`, or by its watchdog once this test process is gone. */
export async function startCluster(): Promise<Cluster> {
  const proc = Bun.spawn([process.execPath, SCRIPT, "start", "--watch", String(process.pid)], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const url = /^GATEWAY_DATABASE_URL=(\S+)$/m.exec(out)?.[1];
  const dir = /^PG_THROWAWAY_DIR=(\S+)$/m.exec(out)?.[1];
  if (code !== 0 || !url || !dir) throw new Error(`pg-throwaway start failed (${code}): ${err}${out}`);
  return {
    url,
    dir,
    async database(name) {
      const admin = new Bun.SQL({ url, max: 1 });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      await admin.close();
      return url.replace(/\/[^/]+$/, `/${name}`);
    },
    stop: () => void Bun.spawnSync([process.execPath, SCRIPT, "stop", dir]),
  };
}

/** The real PostgreSQL store on a database, and a Bun.SQL client beside it for what the tests read or change behind the store's back (the catalogue, drift). */
export interface PgAt {
  store: Store;
  pg: InstanceType<typeof Bun.SQL>;
  close(): Promise<void>;
}

/** openStore on `url` (the migration runner's store, as the gateway opens it) and a client of its own. */
export async function storeAt(url: string): Promise<PgAt> {
  const store = await openStore(url);
  const pg = new Bun.SQL({ url, bigint: true, max: 2 });
  return { store, pg, close: async () => void (await Promise.all([store.close(), pg.close()])) };
}

/** The trigger facts both engines can be compared on. */
export interface Trigger {
  name: string;
  table: string;
  timing: "BEFORE" | "AFTER";
  event: "INSERT" | "UPDATE" | "DELETE" | "TRUNCATE";
}

/** PostgreSQL's catalogue of the public schema, in SqliteTable's shape; types are PostgreSQL's. */
export async function pgCatalogue(pg: InstanceType<typeof Bun.SQL>, schema = "public"): Promise<SqliteTable[]> {
  const tables = (await pg`SELECT tablename AS name FROM pg_tables WHERE schemaname = ${schema} AND tablename <> 'schema_migrations' ORDER BY tablename`) as { name: string }[];
  const out: SqliteTable[] = [];
  for (const { name } of tables) {
    const rel = `${schema}.${name}`;
    const columns = (await pg`
      SELECT a.attname AS name, a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS dflt,
        format_type(a.atttypid, a.atttypmod) || CASE WHEN co.collname IS NULL OR co.collname = 'default' THEN '' ELSE ' COLLATE "' || co.collname || '"' END AS type
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum LEFT JOIN pg_collation co ON co.oid = a.attcollation
      WHERE a.attrelid = ${rel}::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`) as { name: string; type: string; not_null: boolean; dflt: string | null }[];
    const constraints = (await pg`
      SELECT c.contype AS type, pg_get_constraintdef(c.oid) AS def,
        ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS cols,
        c.confrelid::regclass::text AS ref_table,
        ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS ref_cols
      FROM pg_constraint c WHERE c.conrelid = ${rel}::regclass ORDER BY c.conname`) as { type: string; def: string; cols: string[]; ref_table: string; ref_cols: string[] }[];
    const indexes = (await pg`
      SELECT i.relname AS name, x.indisunique AS is_unique, pg_get_expr(x.indpred, x.indrelid) AS pred,
        ARRAY(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) k)::text[] AS cols
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = ${rel}::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      ORDER BY i.relname`) as { name: string; is_unique: boolean; pred: string | null; cols: string[] }[];
    out.push({
      name,
      columns: columns.map((c) => ({ name: c.name, type: c.type, notNull: c.not_null, default: c.dflt })),
      primaryKey: constraints.find((c) => c.type === "p")?.cols ?? [],
      uniques: constraints.filter((c) => c.type === "u").map((c) => c.cols),
      checks: constraints.filter((c) => c.type === "c").map((c) => c.def),
      foreignKeys: constraints
        .filter((c) => c.type === "f")
        .map((c) => ({ columns: c.cols, table: c.ref_table.replace(/^public\./, ""), to: c.ref_cols }))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      indexes: indexes.map((ix) => ({ name: ix.name, columns: ix.cols, unique: ix.is_unique, where: ix.pred })),
      rowid: null,
      withoutRowid: false,
    });
  }
  return out;
}

/** PostgreSQL's user triggers, one row per event (a trigger on UPDATE OR DELETE is two). */
export async function pgTriggers(pg: InstanceType<typeof Bun.SQL>): Promise<(Trigger & { forEachRow: boolean; fn: string; args: string })[]> {
  const rows = (await pg`
    SELECT t.tgname AS name, c.relname AS tbl, t.tgtype AS type, p.proname AS fn, encode(t.tgargs, 'escape') AS args
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE NOT t.tgisinternal ORDER BY t.tgname`) as { name: string; tbl: string; type: number; fn: string; args: string }[];
  const out: (Trigger & { forEachRow: boolean; fn: string; args: string })[] = [];
  for (const r of rows) {
    // pg_trigger.tgtype bits (src/include/catalog/pg_trigger.h): 1 row, 2 before, 4 insert, 8 delete, 16 update, 32 truncate, 64 instead.
    const timing = r.type & 2 ? "BEFORE" : "AFTER";
    for (const [bit, event] of [[4, "INSERT"], [8, "DELETE"], [16, "UPDATE"], [32, "TRUNCATE"]] as const) {
      if (r.type & bit) out.push({ name: r.name, table: r.tbl, timing, event, forEachRow: (r.type & 1) === 1, fn: r.fn, args: r.args.replace(/\0$/, "") });
    }
  }
  return out;
}
