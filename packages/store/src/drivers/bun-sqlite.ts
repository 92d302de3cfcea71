import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { Store, StoreDb } from "../open";
import { commitQueue } from "../commit-queue";
import { queuedStore } from "./queued-store";
import { cacheStatements } from "./statement-cache";
import { walSync } from "./wal-sync";
import { startCheckpointer } from "./checkpointer";
import { whenFree } from "./busy-wait";
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
  // The writer's COMMIT appends to the WAL without an fsync on the event loop; the commit queue
  // fsyncs the -wal file on the thread pool before any write's promise settles (wal-sync.ts).
  const wal = isMemory(path) ? undefined : walSync(`${path}-wal`);
  if (wal) writer.exec("PRAGMA synchronous = NORMAL");
  // Checkpoints off the event loop (checkpointer.ts); SQLite's own again if the worker fails.
  const checkpointer = isMemory(path)
    ? undefined
    : startCheckpointer(path, () => {
        try {
          writer.exec("PRAGMA wal_autocheckpoint = 1000");
        } catch {
          // Closed meanwhile: nothing left to checkpoint for.
        }
      });
  if (checkpointer) writer.exec("PRAGMA wal_autocheckpoint = 0");
  narrowDatabaseCompanions(path);
  // An in-memory database exists on one connection only, so there it has to be shared.
  const reader = isMemory(path) ? writer : new Database(path, { strict: true });
  if (reader !== writer) {
    configure(reader);
    reader.exec("PRAGMA query_only = ON");
  }
  // From here on the writer never sleeps in SQLite for the lock another process holds: the commit
  // queue waits on timers instead (busy-wait.ts). Once BEGIN IMMEDIATE holds the lock, nothing
  // else in the transaction waits for one in WAL mode (COMMIT appends to the log).
  writer.exec("PRAGMA busy_timeout = 0");
  cacheStatements(writer);
  if (reader !== writer) cacheStatements(reader);
  const writeDb = drizzle(writer) as unknown as StoreDb;
  const readDb = drizzle(reader) as unknown as StoreDb;
  const raw = { exec: async (sql: string) => void writer.exec(sql) };
  const bare = (sql: string) => whenFree(() => writer.exec(sql), sql.slice(0, 40));
  // Prepared once: the queue runs them for every batch and every write in it.
  const stmt = (sql: string) => {
    const q = writer.prepare(sql);
    return () => void q.run();
  };
  const commit = stmt("COMMIT");
  const beginImmediate = stmt("BEGIN IMMEDIATE");
  const queue = commitQueue({
    begin: () => {
      batchVersion = undefined;
      return whenFree(beginImmediate, "BEGIN IMMEDIATE");
    },
    commit: () => {
      commit();
      checkpointer?.committed();
    },
    rollback: stmt("ROLLBACK"),
    savepoint: stmt("SAVEPOINT write"),
    release: stmt("RELEASE write"),
    rollbackToSavepoint: stmt("ROLLBACK TO write"),
    inTransaction: () => writer.inTransaction,
    exec: bare,
    ...(wal ? { sync: wal.sync } : {}),
  });
  // The writer's own commits never move its data_version; every other connection's do (the
  // reader's would move with ours too). A read-only pragma: safe beside the writer's open batch,
  // during which no other connection can commit anyway.
  const dataVersion = isMemory(path) ? undefined : writer.prepare<{ data_version: number }, []>("PRAGMA data_version");
  // While a batch holds the write lock no other connection can commit, so the counter cannot move:
  // read once per batch (the first ask after BEGIN), not once per actor of every write in it.
  let batchVersion: number | undefined;
  const othersCommitted = dataVersion
    ? () => {
        if (!writer.inTransaction) return dataVersion.get()!.data_version;
        return (batchVersion ??= dataVersion.get()!.data_version);
      }
    : undefined;
  return queuedStore({
    driver: "bun-sqlite",
    ...(othersCommitted ? { othersCommitted } : {}),
    db: readDb,
    writeDb,
    raw,
    queue,
    close: async () => {
      await checkpointer?.close();
      await wal?.close();
      if (reader !== writer) {
        reader.close();
      }
      writer.close();
    },
  });
}
