import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Store } from "./open";

/**
 * Versioned SQL migrations: schemas/migrations/NNNN_name.sql, applied in order, each once.
 * Inside a `bun build --compile` binary every module's import.meta.dir is the embedded root
 * (/$bunfs/root; B:\~BUN\root on Windows), where scripts/build-binary.ts puts the folder
 * with `--asset schemas/migrations`, so the same readdir finds the embedded copies.
 */
const COMPILED = import.meta.dir.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(import.meta.dir);
export const MIGRATIONS_DIR = COMPILED
  ? join(import.meta.dir, "migrations")
  : join(import.meta.dir, "../../../schemas/migrations");

export interface Migration {
  version: string;
  sql: string;
}

/** Reads NNNN_name.sql files in name order; the version is the file name without .sql. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ""), sql: readFileSync(join(dir, f), "utf8") }));
}

/**
 * Applies the migrations not applied yet. Each one runs inside its own write transaction
 * together with its schema_migrations row, so a failing migration leaves neither half a
 * schema nor a record claiming it ran, and two processes migrating at once apply it once.
 * (PRAGMAs that cannot run in a transaction, such as journal_mode, belong in openStore.)
 * `source` is a folder or the migrations themselves (the compiled binary embeds them).
 */
export async function migrate(store: Store, source: string | Migration[] = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = typeof source === "string" ? readMigrations(source) : [...source].sort((a, b) => a.version.localeCompare(b.version));
  await store.write((_tx, raw) =>
    raw.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)"),
  );
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await store.write(async (tx, raw) => {
      const rows = await tx.all(sql`SELECT 1 AS present FROM schema_migrations WHERE version = ${m.version}`);
      if (rows.length) return false;
      await raw.exec(m.sql);
      await tx.run(sql`INSERT INTO schema_migrations (version, applied_at) VALUES (${m.version}, ${Date.now()})`);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
}
