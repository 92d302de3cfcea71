import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import type { Store, StoreDb, WriteRaw } from "../open";
import { splitStatements } from "../statements";
import { filePath, isMemory } from "../url";
import { narrowDatabaseCompanions, preparePrivateDatabase } from "../private-database";
import { commitQueue } from "../commit-queue";
import { queuedStore } from "./queued-store";

const CONNECTION_PRAGMAS = "PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;";

/**
 * A local file through @libsql/client (GATEWAY_DATABASE_DRIVER=libsql).
 *
 * @libsql/client 0.17's client.transaction() hands its connection to the transaction and opens
 * a new one for the next call; the old one is never closed (two file descriptors per
 * transaction, kept even after GC: tursodatabase/libsql-client-ts#350) and the new one has
 * lost its pragmas. So the writer is a client of its own that only ever runs BEGIN IMMEDIATE
 * ... COMMIT on its single connection under the serial queue (the statements
 * client.transaction("write") sends), and reads go through a second, query-only client.
 * Inside the transaction only execute() is used: the client's batch() and executeMultiple()
 * begin or roll back transactions of their own. Writes go through the store's commit queue
 * (group commit, as on the embedded driver: docs/decisions/0006).
 */
export async function openLibsqlFile(url: string): Promise<Store> {
  const path = filePath(url);
  if (isMemory(path)) throw new Error("the libsql driver needs a file; use the bun-sqlite driver for :memory:");
  preparePrivateDatabase(path);
  const writer = createClient({ url: `file:${path}` });
  // The busy timeout first: switching to WAL takes a lock another connection may hold for a moment.
  await writer.executeMultiple(CONNECTION_PRAGMAS);
  await writer.execute("PRAGMA journal_mode = WAL");
  narrowDatabaseCompanions(path);
  const reader = createClient({ url: `file:${path}` });
  await reader.executeMultiple(`${CONNECTION_PRAGMAS} PRAGMA query_only = ON;`);
  const writeDb = drizzle({ client: writer }) as unknown as StoreDb;
  const raw: WriteRaw = {
    exec: async (sql) => {
      for (const stmt of splitStatements(sql)) await writer.execute(stmt);
    },
  };
  // Group commit (issue 8 §1), the same queue as the embedded bun:sqlite driver: the writes ready
  // within one tick share one BEGIN IMMEDIATE ... COMMIT, each in its own savepoint. With
  // synchronous=FULL the COMMIT is durable when it returns, so there is no separate fsync step.
  let open = false;
  const run = (statement: string) => async () => {
    await writer.execute(statement);
  };
  const queue = commitQueue({
    begin: async () => {
      await writer.execute("BEGIN IMMEDIATE");
      open = true;
    },
    commit: async () => {
      await writer.execute("COMMIT");
      open = false;
    },
    rollback: async () => {
      open = false;
      await writer.execute("ROLLBACK");
    },
    savepoint: run("SAVEPOINT write"),
    release: run("RELEASE write"),
    rollbackToSavepoint: run("ROLLBACK TO write"),
    // The client cannot say whether SQLite abandoned the transaction on its own (SQLITE_FULL, an
    // I/O error). Taken as still open: if it was not, ROLLBACK TO fails and the queue fails the
    // whole batch, which is what an abandoned transaction means anyway.
    inTransaction: () => open,
    exec: (sql) => writer.executeMultiple(sql),
  });
  return queuedStore({
    driver: "libsql",
    db: drizzle({ client: reader }) as unknown as StoreDb,
    writeDb,
    raw,
    queue,
    close: () => {
      reader.close();
      writer.close();
    },
  });
}
