import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Dialect, Store } from "./open";

/**
 * Versioned SQL migrations, one folder per engine: schemas/migrations/NNNN_name.sql (SQLite,
 * the schema's history and its truth) and schemas/migrations-postgres/NNNN_name.sql (PostgreSQL:
 * a baseline equal to SQLite after 0067, printed from SQLite's catalogue by
 * scripts/pg-baseline.ts, then one file per later change, same number and name as SQLite's,
 * written in the same commit; decision 0041). Applied in order, each once.
 * Inside a `bun build --compile` binary every module's import.meta.dir is the embedded root
 * (/$bunfs/root; B:\~BUN\root on Windows), where scripts/build-binary.ts puts both folders
 * with `--asset`, so the same readdir finds the embedded copies.
 */
const COMPILED = import.meta.dir.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(import.meta.dir);
const ROOT = COMPILED ? import.meta.dir : join(import.meta.dir, "../../../schemas");
export const MIGRATIONS_DIR = join(ROOT, "migrations");
export const PG_MIGRATIONS_DIR = join(ROOT, "migrations-postgres");

/** The engine a store speaks. Read defensively: stores opened before the field existed are SQLite. */
export function dialectOf(store: Store): Dialect {
  return (store as { dialect?: Dialect }).dialect ?? "sqlite";
}

/** The migrations folder of a store's engine. */
export function migrationsDirFor(store: Store): string {
  return dialectOf(store) === "postgres" ? PG_MIGRATIONS_DIR : MIGRATIONS_DIR;
}

/**
 * The transaction-level advisory lock every PostgreSQL migration transaction takes first, so two
 * processes starting together serialise (SQLite gets that from BEGIN IMMEDIATE). Its own number,
 * not the store's write lock: "NDC" in ASCII, then 0041.
 */
export const MIGRATION_LOCK = 0x4e4443_0041;

export interface Migration {
  version: string;
  sql: string;
  /**
   * The versions a baseline stands for (its `-- covers VERSION` lines): recorded in
   * schema_migrations instead of the file's own name, so a PostgreSQL database built from the
   * baseline lists the very versions a SQLite database migrated file by file lists.
   */
  covers?: string[];
}

/** Reads NNNN_name.sql files in name order; the version is the file name without .sql. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const text = readFileSync(join(dir, f), "utf8");
      const covers = f.endsWith("_baseline.sql") ? [...text.matchAll(/^-- covers (\S+)$/gm)].map((m) => m[1]!) : [];
      return { version: f.replace(/\.sql$/, ""), sql: text, ...(covers.length ? { covers } : {}) };
    });
}

/** The runner's own table, in each engine's types (as the baseline maps them: bigint, text in byte order). */
const SCHEMA_MIGRATIONS: Record<Dialect, string> = {
  sqlite: "CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)",
  postgres: 'CREATE TABLE IF NOT EXISTS schema_migrations (version text COLLATE "C" PRIMARY KEY, applied_at bigint NOT NULL)',
};

/**
 * Applies the migrations not applied yet. Each one runs inside its own write transaction
 * together with its schema_migrations row(s), so a failing migration leaves neither half a
 * schema nor a record claiming it ran, and two processes migrating at once apply it once
 * (PostgreSQL's DDL is transactional too; there the advisory lock is taken first).
 * (PRAGMAs that cannot run in a transaction, such as journal_mode, belong in openStore.)
 * `source` is a folder or the migrations themselves (the compiled binary embeds them); by
 * default the store's engine's folder. Answers the versions recorded, a baseline's covered ones
 * included, so `ndc-gateway migrate` reports the same versions on both engines.
 */
export async function migrate(store: Store, source: string | Migration[] = migrationsDirFor(store)): Promise<string[]> {
  const migrations = typeof source === "string" ? readMigrations(source) : [...source].sort((a, b) => a.version.localeCompare(b.version));
  const dialect = dialectOf(store);
  const lock = dialect === "postgres" ? `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK});\n` : "";
  await store.write((_tx, raw) => raw.exec(lock + SCHEMA_MIGRATIONS[dialect]));
  const applied: string[] = [];
  for (const m of migrations) {
    const versions = m.covers ?? [m.version];
    const done = await store.write(async (tx, raw) => {
      if (lock) await raw.exec(lock);
      // A baseline is recorded by its last covered version (all or none of them are written).
      const rows = await tx.all(sql`SELECT 1 AS present FROM schema_migrations WHERE version = ${versions.at(-1)}`);
      if (rows.length) return false;
      await raw.exec(m.sql);
      const at = Date.now();
      for (const v of versions) await tx.run(sql`INSERT INTO schema_migrations (version, applied_at) VALUES (${v}, ${at})`);
      return true;
    });
    if (done) applied.push(...versions);
  }
  return applied;
}
