import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Store } from "@ndc/store";

/**
 * What a store holds, read the same way on both engines (issue 23): for the tests that prove a
 * value (a card number, a document number, an authentication value) reached no table, or that a
 * refusal wrote nothing. The table list is the one thing read from each engine's own catalogue.
 */

/** The store's tables, sorted by name (SQLite's internal sqlite_* tables left out). */
export async function tableNames(store: Pick<Store, "db" | "dialect">): Promise<string[]> {
  const rows = (await store.db.all(
    store.dialect === "postgres"
      ? sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
      : sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
  )) as { name: string }[];
  // Sorted here too: the same order whatever collation each catalogue sorts its names by.
  return rows.map((r) => r.name).sort();
}

/** Every row of every table, by table. */
export async function everyRow(store: Pick<Store, "db" | "dialect">): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const name of await tableNames(store)) out[name] = (await store.db.all(sql.raw(`SELECT * FROM "${name}"`))) as Record<string, unknown>[];
  return out;
}

/** The tables with a row holding `needle` in any column, sorted. */
export async function tablesHolding(store: Pick<Store, "db" | "dialect">, needle: string): Promise<string[]> {
  const rows = await everyRow(store);
  return Object.keys(rows).filter((name) => JSON.stringify(rows[name]).includes(needle));
}

/**
 * Everything the database holds, as text to search: every row (JSON), and on SQLite also every
 * byte of the .db files and their -wal under `dataDir` (latin1, so any ASCII run is findable),
 * after a checkpoint, since free pages and old WAL frames keep what no row shows any more.
 * PostgreSQL keeps no file of ours to read: its rows are what is checked there.
 */
export async function databaseText(store: Pick<Store, "db" | "dialect" | "exec">, dataDir: string): Promise<string> {
  const rows = JSON.stringify(await everyRow(store));
  if (store.dialect === "postgres") return rows;
  await store.exec("PRAGMA wal_checkpoint(PASSIVE)").catch(() => undefined);
  const files = readdirSync(dataDir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".db") || f.endsWith("-wal"));
  if (files.length === 0) throw new Error(`no database file under ${dataDir}`);
  return [rows, ...files.map((f) => readFileSync(join(dataDir, f)).toString("latin1"))].join("\n");
}
