import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { Store, StoreDb } from "../open";
import { serialQueue } from "../serial";
import { filePath, isMemory } from "../url";
import { narrowDatabaseCompanions, preparePrivateDatabase } from "../private-database";

/** Per-connection settings; journal_mode=WAL is stored in the file, the others are not. */
function configure(conn: Database): void {
  conn.exec("PRAGMA busy_timeout = 5000");
  conn.exec("PRAGMA foreign_keys = ON");
  conn.exec("PRAGMA synchronous = FULL");
}

/**
 * The embedded driver (works inside the compiled binary). Two connections: one writer used
 * only by write()/exec() under the serial queue, and one query-only reader, so a read issued
 * while a write transaction is open neither sees its uncommitted rows nor runs inside it.
 */
export function openBunSqlite(url: string): Store {
  const path = filePath(url);
  preparePrivateDatabase(path);
  const writer = new Database(isMemory(path) ? ":memory:" : path, { create: true, strict: true });
  // The busy timeout before anything that takes a lock: switching to WAL does, and another
  // connection may hold one for a moment (a reader's deferred close checkpointing the WAL, a
  // restart recovering it). Without it the open fails at once with "database is locked".
  configure(writer);
  writer.exec("PRAGMA journal_mode = WAL");
  narrowDatabaseCompanions(path);
  // An in-memory database exists on one connection only, so there it has to be shared.
  const reader = isMemory(path) ? writer : new Database(path, { strict: true });
  if (reader !== writer) {
    configure(reader);
    reader.exec("PRAGMA query_only = ON");
  }
  const writeDb = drizzle(writer) as unknown as StoreDb;
  const readDb = drizzle(reader) as unknown as StoreDb;
  const raw = { exec: async (sql: string) => void writer.exec(sql) };
  const queue = serialQueue();
  let closed = false;
  // A rejected promise, not a throw: callers chain on write() and expect one failure path.
  const refused = () => Promise.reject(new Error("store is closed"));

  return {
    driver: "bun-sqlite",
    db: readDb,
    exec: (sql) => {
      if (closed) return refused();
      return queue.run(async () => void writer.exec(sql));
    },
    write<T>(fn: Parameters<Store["write"]>[0]): Promise<T> {
      if (closed) return refused();
      return queue.run(async () => {
        writer.exec("BEGIN IMMEDIATE");
        try {
          const result = (await fn(writeDb, raw)) as T;
          writer.exec("COMMIT");
          return result;
        } catch (e) {
          // COMMIT itself may have failed and left the transaction open; never mask the cause.
          if (writer.inTransaction) {
            try {
              writer.exec("ROLLBACK");
            } catch {}
          }
          throw e;
        }
      });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await queue.idle();
      if (reader !== writer) reader.close();
      writer.close();
    },
  };
}
