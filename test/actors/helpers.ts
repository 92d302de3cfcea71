import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { migrate, openStore, type DriverName, type Store } from "@ndc/store";

export const DRIVERS: DriverName[] = ["bun-sqlite", "libsql"];

/** A fresh data dir per test; removed by the returned cleanup. */
export function tempDir(prefix = "ndc-actors-"): { dir: string; url: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, url: `file:${join(dir, "gateway.db")}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function openMigrated(url: string, driver: DriverName): Promise<Store> {
  const store = await openStore(url, { driver });
  await migrate(store);
  return store;
}

export interface JournalRow {
  seq: number;
  id: string;
}

export async function journalOf(store: Store, kind: string, key: string): Promise<JournalRow[]> {
  return (await store.db.all(
    sql`SELECT seq, json_extract(payload, '$.id') AS id FROM actor_journal WHERE kind = ${kind} AND key = ${key} ORDER BY seq`,
  )) as JournalRow[];
}

/** A promise with its resolver, to hold a step of a kind open while a test looks. */
export function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}
