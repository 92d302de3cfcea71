import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "./open";

/** Versioned SQL migrations: schemas/migrations/NNNN_name.sql, applied in order, each once. */
export const MIGRATIONS_DIR = join(import.meta.dir, "../../../schemas/migrations");

export async function migrate(store: Store, dir = MIGRATIONS_DIR): Promise<string[]> {
  await store.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)",
  );
  const files = readdirSync(dir).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort();
  const applied: string[] = [];
  for (const f of files) {
    const version = f.replace(/\.sql$/, "");
    const sql = readFileSync(join(dir, f), "utf8");
    const done = await store.write(async (tx) => {
      const rows = (await tx.all(`SELECT 1 FROM schema_migrations WHERE version = '${version}'`)) as unknown[];
      if (rows.length) return false;
      await store.exec(sql);
      await tx.run(`INSERT INTO schema_migrations (version, applied_at) VALUES ('${version}', ${Date.now()})`);
      return true;
    });
    if (done) applied.push(version);
  }
  return applied;
}
