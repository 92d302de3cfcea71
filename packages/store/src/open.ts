import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { openBunSqlite } from "./drivers/bun-sqlite";
import { databasePool } from "@ndc/config";
import { driverFor, type DriverName } from "./url";
import type { CommitStats } from "./commit-queue";

/** The SQL dialects a store may speak: SQLite (embedded, libSQL) or PostgreSQL. */
export type Dialect = "sqlite" | "postgres";

// Drizzle over either driver; domain code awaits every query so both drivers fit.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StoreDb = BaseSQLiteDatabase<"sync" | "async", any>;

/** What a write callback may do besides drizzle queries. */
export interface WriteRaw {
  /** Runs raw SQL (several statements allowed) inside the open write transaction: migrations use it. */
  exec(sql: string): Promise<void>;
}

export interface Store {
  driver: DriverName;
  /**
   * The SQL dialect the store speaks (decision 0041): the few statements whose text differs
   * between engines choose their form by it (packages/store/src/dialect.ts), nothing else does.
   */
  dialect: Dialect;
  /**
   * Reads. Never part of an open write: a read sees only committed data. With the embedded
   * drivers it is a separate, query-only connection, so a write through it fails loudly.
   */
  db: StoreDb;
  /**
   * Counters of the write path: write() calls that committed, and the COMMITs (fsyncs) they
   * took. With the group commit of the embedded driver several writes share one COMMIT.
   */
  readonly commits: Readonly<CommitStats>;
  /** Raw statements outside any transaction (pragmas, VACUUM), serialised with the writes. */
  exec(sql: string): Promise<void>;
  /**
   * One write transaction, serialised with every other write of this process.
   * Committed durably before the promise resolves (WAL; bun:sqlite: synchronous=NORMAL plus an
   * fsync of the -wal file on the thread pool, drivers/wal-sync.ts; libSQL: synchronous=FULL); rolled back if
   * `fn` throws. With bun:sqlite (the embedded default) writes ready within one tick share one
   * transaction and one fsync (group commit, commit-queue.ts): each runs in a savepoint, so a
   * throwing `fn` is rolled back alone, and the promise settles only after the shared COMMIT
   * (if that fails, every write of the batch fails). Calling write() from inside `fn` is refused (it would wait for itself).
   * Keep `fn` short and free of other I/O: every other write waits for it.
   */
  write<T>(fn: (tx: StoreDb, raw: WriteRaw) => Promise<T> | T): Promise<T>;
  /**
   * A counter that moves whenever ANOTHER connection commits to the file (another process, the CLI,
   * a second store in this process), never for this store's own writes: `PRAGMA data_version` on
   * the writer connection, a few µs. Actors skip their freshness read while it stands still
   * (docs/decisions/0040). Undefined where no such counter is sound (in memory, libSQL, PostgreSQL).
   */
  othersCommitted?: () => number;
  /** Waits for queued writes, then closes every connection. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * Force a driver. Defaults to GATEWAY_DATABASE_DRIVER, then to the URL: `file:` uses
   * bun:sqlite (the one that runs inside the compiled binary), libsql:// and http(s):// use libSQL,
   * postgres:// and postgresql:// use PostgreSQL (Bun.SQL; no other driver can be forced on it).
   */
  driver?: DriverName | "libsql" | "bun-sqlite";
  /** Token for a libSQL server (sqld/Turso). Defaults to GATEWAY_DATABASE_AUTH_TOKEN. */
  authToken?: string;
  /** PostgreSQL read connections. Defaults to GATEWAY_DATABASE_POOL, then 10. */
  poolSize?: number;
}

export async function openStore(url: string, opts: OpenOptions = {}): Promise<Store> {
  const driver = driverFor(url, opts.driver ?? process.env.GATEWAY_DATABASE_DRIVER);
  if (driver === "bun-sqlite") return openBunSqlite(url);
  // Loaded only when asked, as libSQL is: SQLite-only runs load nothing of it.
  if (driver === "postgres") {
    const { openPostgres } = await import("./drivers/postgres");
    return openPostgres(url, { poolSize: opts.poolSize ?? databasePool(process.env) });
  }
  // Loaded only when asked: @libsql/client's native addon is not embedded in the compiled binary.
  if (url.startsWith("file:")) {
    const { openLibsqlFile } = await import("./drivers/libsql-file");
    return openLibsqlFile(url);
  }
  const { openLibsqlServer } = await import("./drivers/libsql-server");
  return openLibsqlServer(url, opts.authToken ?? process.env.GATEWAY_DATABASE_AUTH_TOKEN);
}
