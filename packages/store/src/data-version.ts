import { Database } from "bun:sqlite";
import type { StoreDb } from "./open";

/**
 * A cheap "has anything changed?" for caches over the store: PRAGMA data_version on the read
 * connection, which moves whenever another connection commits (this process's writer, the CLI,
 * another gateway process on the same file) and costs about a microsecond, with no table read.
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
  const stmt = client.prepare<{ data_version: number }, []>("PRAGMA data_version");
  return () => stmt.get()!.data_version;
}
