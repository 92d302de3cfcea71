import { Database } from "bun:sqlite";
import type { StoreDb } from "./open";

/**
 * A cheap "has anything changed?" for caches over the store. It moves whenever another
 * connection commits (this process's writer, the CLI, another gateway process on the same file);
 * the caller then reads what it caches from (a version row) and keeps the value it saw.
 *
 * `PRAGMA data_version` on the read connection, about 2.4 µs a call. It was once read from the
 * WAL-index header in a `Bun.mmap` of the `-shm` file, a few nanoseconds; but mapping the file
 * opened and closed a descriptor of it, and closing any descriptor of a file releases every POSIX
 * lock the process holds on it, among them the lock SQLite keeps on `-shm` to say "a connection
 * is open here". The next process to open the database (the CLI, a backup, any sqlite3 reader)
 * then believed it was alone, re-initialised the WAL index, and the gateway died of SIGBUS
 * (issue 19 item 1; decision 0008). Nothing in the process may open SQLite's files behind its back.
 *
 * Undefined when no such counter is sound, and the caller must read what it caches from:
 * - an in-memory database shares one connection between reads and writes, and a connection's own
 *   commits do not move its data_version;
 * - the libSQL drivers (a server hands statements to any of its connections; the local client
 *   is async), so a counter would cost a round trip anyway;
 * - PostgreSQL (decision 0041): no such counter, and other machines commit too.
 * Undefined means "read the version row on every call": never "assume nothing changed".
 */
export function changeCounter(db: StoreDb): (() => number) | undefined {
  // drizzle keeps the driver's client on the db it returns (drizzle-orm/bun-sqlite driver.js).
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof Database) || client.filename === "" || client.filename === ":memory:") return undefined;
  const stmt = client.prepare<{ data_version: number }, []>("PRAGMA data_version");
  return () => stmt.get()!.data_version;
}
