import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import type { StoreDb } from "./open";

/** Read connections a driver has closed: their -shm mapping must not be read any more (see walIndexChange). */
const closedReaders = new WeakSet<Database>();

/** Called by the bun:sqlite driver when it closes its read connection. */
export function readerClosed(conn: Database): void {
  closedReaders.add(conn);
}

/**
 * A cheap "has anything changed?" for caches over the store. It moves whenever any connection
 * commits (this process's writer, the CLI, another gateway process on the same file); the caller
 * then reads what it caches from (a version row) and keeps the value it saw.
 *
 * Read from the WAL-index header in the database's -shm file, mapped once: SQLite's own WAL-index
 * format (sqlite.org/walformat.html), shared by every connection to the file, whose `iChange`
 * counter the writer bumps in the header at every commit and at every restart of the WAL after a
 * checkpoint. The header is written twice (copy 2 first, then copy 1, with a barrier between)
 * precisely so that a reader without a lock can tell a torn read: the two copies' counters must
 * agree and the header must be initialised, and if not this returns a value never seen before, so
 * the caller checks its version row (never a false "unchanged"). Nanoseconds a call, where
 * `PRAGMA data_version` took about 2.4 µs and two fcntl lock calls (docs/decisions/0008).
 * Falls back to `PRAGMA data_version` on the read connection when there is no -shm file to map.
 *
 * Undefined when no such counter is sound, and the caller must read what it caches from:
 * - an in-memory database shares one connection between reads and writes, and a connection's own
 *   commits do not move its data_version;
 * - the libSQL drivers (a server hands statements to any of its connections; the local client
 *   is async), so a counter would cost a round trip anyway.
 */
export function changeCounter(db: StoreDb): (() => number) | undefined {
  // drizzle keeps the driver's client on the db it returns (drizzle-orm/bun-sqlite driver.js).
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof Database) || client.filename === "" || client.filename === ":memory:") return undefined;
  return walIndexChange(client) ?? pragmaDataVersion(client);
}

function pragmaDataVersion(client: Database): () => number {
  const stmt = client.prepare<{ data_version: number }, []>("PRAGMA data_version");
  return () => stmt.get()!.data_version;
}

/** Bytes of one WAL-index header copy; iChange is its third u32, isInit its 13th byte. */
const HEADER_BYTES = 48;

function walIndexChange(client: Database): (() => number) | undefined {
  // The reader has read once (the store's open runs migrations and pragmas), so in WAL mode the
  // -shm file exists and holds an initialised header; while this connection is open no other
  // connection can truncate it (only the first to open a database with no other connection does).
  client.query("SELECT 1 FROM sqlite_master LIMIT 1").all();
  const mode = (client.query("PRAGMA journal_mode").get() as { journal_mode: string } | null)?.journal_mode;
  const shm = `${client.filename}-shm`;
  if (mode !== "wal" || !existsSync(shm)) return undefined;
  let map: Uint8Array;
  try {
    map = Bun.mmap(shm, { shared: true });
  } catch {
    return undefined;
  }
  if (map.byteLength < 2 * HEADER_BYTES) return undefined;
  const words = new Uint32Array(map.buffer, map.byteOffset, (2 * HEADER_BYTES) / 4);
  let torn = 0;
  return () => {
    // A closed connection no longer keeps the file from being truncated under the mapping.
    if (closedReaders.has(client)) throw new Error("the store is closed");
    const first = words[2]!;
    const second = words[HEADER_BYTES / 4 + 2]!;
    if (first !== second || map[12] !== 1 || map[HEADER_BYTES + 12] !== 1) return -++torn;
    return first;
  };
}
