import { createClient, type Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import type { Store, StoreDb, WriteRaw } from "../open";
import { serialQueue } from "../serial";
import { ensureDir, filePath, isMemory } from "../url";

const CONNECTION_PRAGMAS = "PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;";

/**
 * libSQL through @libsql/client: a libSQL server (libsql://, http(s)://, ws(s)://) or, when
 * GATEWAY_DATABASE_DRIVER=libsql, a local file. Imported dynamically by openStore only.
 */
export async function openLibsql(url: string, opts: { authToken?: string }): Promise<Store> {
  return url.startsWith("file:") ? openLocal(url) : openRemote(url, opts.authToken);
}

/**
 * Local file. @libsql/client 0.17's client.transaction() hands its connection to the
 * transaction and opens a new one for the next call; the old one is never closed (two file
 * descriptors per transaction, kept even after GC: tursodatabase/libsql-client-ts#350) and the
 * new one has lost its pragmas. So the writer is a client of its own that only ever runs
 * BEGIN IMMEDIATE ... COMMIT on its single connection under the serial queue (the same
 * statements client.transaction("write") sends), and reads go through a second, query-only client.
 */
async function openLocal(url: string): Promise<Store> {
  const path = filePath(url);
  if (isMemory(path)) throw new Error("the libsql driver needs a file; use the bun-sqlite driver for :memory:");
  ensureDir(path);
  const writer = createClient({ url: `file:${path}` });
  await writer.execute("PRAGMA journal_mode = WAL");
  await writer.executeMultiple(CONNECTION_PRAGMAS);
  const reader = createClient({ url: `file:${path}` });
  await reader.executeMultiple(`${CONNECTION_PRAGMAS} PRAGMA query_only = ON;`);
  const writeDb = drizzle({ client: writer }) as unknown as StoreDb;
  const raw: WriteRaw = { exec: (sql) => writer.executeMultiple(sql) };
  return assemble({
    db: drizzle({ client: reader }) as unknown as StoreDb,
    exec: (sql) => writer.executeMultiple(sql),
    transaction: async (fn) => {
      await writer.execute("BEGIN IMMEDIATE");
      try {
        const result = await fn(writeDb, raw);
        await writer.execute("COMMIT");
        return result;
      } catch (e) {
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

/** A libSQL server: an interactive write transaction on the server's stream. */
async function openRemote(url: string, authToken?: string): Promise<Store> {
  const client: Client = createClient({ url, authToken });
  return assemble({
    db: drizzle({ client }) as unknown as StoreDb,
    exec: (sql) => client.executeMultiple(sql),
    transaction: async (fn) => {
      const t = await client.transaction("write");
      try {
        // Drizzle only calls execute/batch on its client, which a Transaction provides too.
        const tx = drizzle({ client: t as unknown as Client }) as unknown as StoreDb;
        const result = await fn(tx, { exec: (sql) => t.executeMultiple(sql) });
        await t.commit();
        return result;
      } catch (e) {
        await t.rollback().catch(() => undefined);
        throw e;
      } finally {
        t.close();
      }
    },
    close: () => client.close(),
  });
}

interface Parts {
  db: StoreDb;
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: StoreDb, raw: WriteRaw) => Promise<T> | T): Promise<T>;
  close(): void;
}

function assemble(p: Parts): Store {
  const queue = serialQueue();
  let closed = false;
  const guard = () => {
    if (closed) throw new Error("store is closed");
  };
  return {
    driver: "libsql",
    db: p.db,
    exec: (sql) => {
      guard();
      return queue.run(() => p.exec(sql));
    },
    write: (fn) => {
      guard();
      return queue.run(() => p.transaction(fn));
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await queue.idle();
      p.close();
    },
  };
}

