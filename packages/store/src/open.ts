import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";

// Drizzle over either driver; domain code awaits every query so both drivers fit.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StoreDb = BaseSQLiteDatabase<"sync" | "async", any>;

export interface Store {
  driver: "bun-sqlite" | "libsql";
  db: StoreDb;
  /** Raw statements (migrations, pragmas). */
  exec(sql: string): Promise<void>;
  /**
   * One write transaction, serialised with every other write of this process.
   * Committed durably (WAL, synchronous=FULL) before the promise resolves.
   */
  write<T>(fn: (tx: StoreDb) => Promise<T> | T): Promise<T>;
  close(): Promise<void>;
}

/** Opens the embedded store for a `file:` URL with bun:sqlite (the only driver that works in the compiled binary). */
export async function openStore(url: string): Promise<Store> {
  if (!url.startsWith("file:")) throw new Error(`unsupported database URL: ${url}`);
  const path = url.slice("file:".length);
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const db = drizzle(sqlite) as unknown as StoreDb;
  let chain: Promise<unknown> = Promise.resolve();
  return {
    driver: "bun-sqlite",
    db,
    exec: async (sql) => void sqlite.exec(sql),
    write<T>(fn: (tx: StoreDb) => Promise<T> | T): Promise<T> {
      const run = async () => {
        sqlite.exec("BEGIN IMMEDIATE");
        try {
          const r = await fn(db);
          sqlite.exec("COMMIT");
          return r;
        } catch (e) {
          sqlite.exec("ROLLBACK");
          throw e;
        }
      };
      const p = chain.then(run, run);
      chain = p.catch(() => undefined);
      return p;
    },
    close: async () => sqlite.close(),
  };
}
