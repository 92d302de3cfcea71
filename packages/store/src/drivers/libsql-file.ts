import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import type { Store, StoreDb, WriteRaw } from "../open";
import { splitStatements } from "../statements";
import { withEndOfWrite } from "../end-of-write";
import { filePath, isMemory } from "../url";
import { narrowDatabaseCompanions, preparePrivateDatabase } from "../private-database";
import { assemble } from "./assemble";

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
 * begin or roll back transactions of their own.
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
  return assemble({
    db: drizzle({ client: reader }) as unknown as StoreDb,
    exec: (sql) => writer.executeMultiple(sql),
    transaction: async (fn) => {
      await writer.execute("BEGIN IMMEDIATE");
      try {
        const result = await withEndOfWrite(writeDb, () => fn(writeDb, raw));
        await writer.execute("COMMIT");
        return result;
      } catch (e) {
        // COMMIT itself may have failed; never let the rollback's own error hide the cause.
        await writer.execute("ROLLBACK").catch(() => undefined);
        throw e;
      }
    },
    close: () => {
      reader.close();
      writer.close();
    },
  });
}
