import { GatewayError } from "@ndc/errors";
import type { Store, StoreDb, WriteRaw } from "../open";
import { commitQueue } from "../commit-queue";
import { unavailableOr } from "../errors";
import { redact } from "../url";
import { queuedStore } from "./queued-store";
import { pgDatabase, type PgRunner } from "./pg-session";
import { WRITE_LOCK_WAIT_MS } from "./busy-wait";

/**
 * The one cluster-wide write lock (decision 0041): every write transaction of every process on
 * every machine takes this transaction-level advisory lock first, so writes are serial as SQLite's
 * BEGIN IMMEDIATE makes them on one file, and the domain's read-then-write inside store.write()
 * (idempotency rows, operation claims, decision 0040's caught-up-under-lock check) means the same
 * on both engines. Readers never take it. The number is arbitrary and the same everywhere.
 */
export const WRITE_LOCK_KEY = 4_007_523_105;

/**
 * How a write transaction opens: READ COMMITTED (each statement sees every commit before it, and
 * under the lock nobody else commits a write), the lock wait bounded as on SQLite (then actor_busy,
 * as busy-wait.ts answers a file lock held too long), then the lock. One round trip.
 */
const BEGIN = `BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL lock_timeout = '${WRITE_LOCK_WAIT_MS}ms'; SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`;

const CONNECT_TIMEOUT_S = WRITE_LOCK_WAIT_MS / 1000;
/** Far above any write of the gateway (a few ms, no other I/O inside: Store.write's contract). */
const WRITER_IDLE_LIMIT = "30s";

const DATABASE = "SELECT pg_encoding_to_char(encoding) AS encoding FROM pg_database WHERE datname = current_database()";

interface Reserved extends PgRunner {
  release(): void;
}
interface Pool extends PgRunner {
  reserve(): Promise<Reserved>;
  close(): Promise<void>;
}

export interface PostgresOptions {
  /** Read connections (GATEWAY_DATABASE_POOL); the writer has one more pool of its own. */
  poolSize: number;
  /** Writes one COMMIT may carry (the commit queue's default, 64); 1 turns group commit off (bench/pg-group-commit.ts). */
  maxBatch?: number;
}

/**
 * PostgreSQL through Bun's built-in client (no new dependency; it runs inside the compiled binary).
 * Two pools: reads (read-only connections, as SQLite's reader is query_only) and the writer, whose
 * write transactions run one at a time per process through the same commit queue as the embedded
 * driver: the writes ready within one tick share one transaction (one lock, one COMMIT), each in a
 * savepoint (group commit; the measurement is in decision 0041). Both pools reconnect by
 * themselves after a restart; meanwhile every failure to reach the server is store_unavailable.
 * No `othersCommitted`: PostgreSQL has no data_version, so actors read their journal head before
 * each command and the caller cache reads its version row on every call (decision 0040's rules
 * with the counter absent).
 */
export async function openPostgres(url: string, opts: PostgresOptions): Promise<Store> {
  // A connection not made within the lock wait is reported, not waited for: store_unavailable.
  const make = (max: number, connection: Record<string, string>) => new Bun.SQL({ url, bigint: true, max, connectionTimeout: CONNECT_TIMEOUT_S, connection }) as unknown as Pool;
  const reads = make(opts.poolSize, { default_transaction_read_only: "on" });
  // A writer that stops mid-transaction (a frozen process, a machine cut off) would hold every
  // machine's writes behind the lock until TCP noticed: the server ends its transaction instead.
  const writes = make(2, { idle_in_transaction_session_timeout: WRITER_IDLE_LIMIT });
  let database: { encoding: string };
  try {
    const [row] = (await reads.unsafe(DATABASE)) as unknown as { encoding: string }[];
    database = row!;
  } catch (e) {
    await Promise.all([reads.close(), writes.close()]).catch(() => undefined);
    const failure = new Error(`cannot reach PostgreSQL at ${redact(url)}: ${(e as Error).message}`);
    (failure as { cause?: unknown }).cause = e;
    throw failure;
  }
  // Text is compared and sorted by code point through each column's COLLATE "C" (the schema's
  // mapping of SQLite's BINARY, decision 0041), whatever the database's own locale; what the
  // columns cannot fix is an encoding other than UTF8, which would change or refuse text.
  if (database.encoding !== "UTF8") {
    await Promise.all([reads.close(), writes.close()]).catch(() => undefined);
    throw new Error(`PostgreSQL database at ${redact(url)} is encoded ${database.encoding}: the gateway needs UTF8 (CREATE DATABASE ... ENCODING 'UTF8' TEMPLATE template0), as SQLite stores its text (decision 0041)`);
  }

  /** The reserved connection of the write transaction now open (writes run one at a time). */
  let conn: Reserved | null = null;
  let open = false;
  const current = (): PgRunner => {
    if (!conn) throw new Error("the write database was used outside store.write()");
    return conn;
  };
  const hangUp = () => {
    const c = conn;
    conn = null;
    open = false;
    try {
      c?.release();
    } catch {
      // A connection the server dropped: the pool replaces it.
    }
  };
  const run = async (sql: string) => {
    try {
      await current().unsafe(sql);
    } catch (e) {
      throw unavailableOr(e);
    }
  };
  const begin = async () => {
    try {
      conn = await writes.reserve();
      await conn.unsafe(BEGIN);
      open = true;
    } catch (e) {
      if (conn) await conn.unsafe("ROLLBACK").then(undefined, () => undefined);
      hangUp();
      throw lockTimeout(e) ?? unavailableOr(e);
    }
  };
  const finish = (statement: "COMMIT" | "ROLLBACK") => async () => {
    try {
      await run(statement);
    } finally {
      hangUp();
    }
  };
  const raw: WriteRaw = { exec: (sql) => run(sql) };
  const queue = commitQueue(
    {
      begin,
      commit: finish("COMMIT"),
      rollback: finish("ROLLBACK"),
      savepoint: () => run("SAVEPOINT ndc_write"),
      release: () => run("RELEASE SAVEPOINT ndc_write"),
      rollbackToSavepoint: () => run("ROLLBACK TO SAVEPOINT ndc_write"),
      inTransaction: () => open,
      // store.exec: maintenance outside any transaction (VACUUM refuses one), serialised with this
      // process's writes by the queue; no write lock, as it reads nothing to decide on. Several
      // statements in one string are one implicit transaction to PostgreSQL: VACUUM goes alone.
      exec: async (sql) => {
        try {
          await writes.unsafe(sql);
        } catch (e) {
          throw unavailableOr(e);
        }
      },
    },
    opts.maxBatch === undefined ? {} : { maxBatch: opts.maxBatch },
  );
  const store = queuedStore({
    driver: "postgres",
    dialect: "postgres",
    db: pgDatabase(() => reads),
    writeDb: pgDatabase(current) as StoreDb,
    raw,
    queue,
    close: async () => {
      await Promise.all([reads.close(), writes.close()]);
    },
  });
  // Whatever a write failed of, a lost connection reaches the caller as store_unavailable.
  const write = store.write.bind(store);
  store.write = (fn) => write(fn).catch((e: unknown) => Promise.reject(unavailableOr(e)));
  return store;
}

/** The write lock held by others past WRITE_LOCK_WAIT_MS (SQLSTATE 55P03): actor_busy, as on SQLite. */
function lockTimeout(e: unknown): GatewayError | undefined {
  if ((e as { errno?: unknown }).errno !== "55P03") return undefined;
  const busy = new GatewayError("actor_busy", { detail: `(the database's write lock was held by other processes for ${WRITE_LOCK_WAIT_MS} ms)`, retryAfterSeconds: 1 });
  (busy as { cause?: unknown }).cause = e;
  return busy;
}
