import type { Database } from "bun:sqlite";

/** One table to copy: its columns in the source's order, the key its rows are read back by, the tables it references. */
export interface SourceTable {
  name: string;
  columns: string[];
  /** The primary key's columns in key order; every column for a table without one. */
  key: string[];
  references: string[];
}

/**
 * The tables `migrate --to` copies, read from the source SQLite's own catalogue (so a table
 * added by a later migration is copied with no change here): every table but the migration
 * runner's `schema_migrations` (each engine records its own) and SQLite's internals. Ordered so
 * that a table comes after the tables its foreign keys reference: PostgreSQL checks a foreign key
 * at each INSERT, and `DISABLE TRIGGER USER` leaves those checks on.
 */
export function sourceTables(db: Database): SourceTable[] {
  const names = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_migrations' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  const tables = names.map((name): SourceTable => {
    const info = db.query(`SELECT name, pk FROM pragma_table_info(${quoteLiteral(name)}) ORDER BY cid`).all() as { name: string; pk: number | bigint }[];
    const key = info.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((c) => c.name);
    const references = (db.query(`SELECT DISTINCT "table" AS target FROM pragma_foreign_key_list(${quoteLiteral(name)})`).all() as { target: string }[]).map((r) => r.target).filter((t) => t !== name);
    const columns = info.map((c) => c.name);
    return { name, columns, key: key.length ? key : columns, references };
  });
  return referencedFirst(tables);
}

/** Depth-first: each table after what it references (a cycle would be a schema error, refused). */
function referencedFirst(tables: SourceTable[]): SourceTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: SourceTable[] = [];
  const visit = (t: SourceTable) => {
    if (done.has(t.name)) return;
    if (visiting.has(t.name)) throw new Error(`foreign keys form a cycle through ${t.name}: no insert order exists`);
    visiting.add(t.name);
    for (const r of t.references) {
      const target = byName.get(r);
      if (target) visit(target);
    }
    visiting.delete(t.name);
    done.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t);
  return out;
}

/** An identifier quoted for either engine (both use SQL's double quotes). */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
