import { NoopLogger, type Query } from "drizzle-orm";
import { SQLiteAsyncDialect, type SelectedFieldsOrdered, type SQLiteExecuteMethod } from "drizzle-orm/sqlite-core";
import { SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import { RemotePreparedQuery, SQLiteRemoteSession } from "drizzle-orm/sqlite-proxy/session";
import { NoopCache } from "drizzle-orm/cache/core";
import type { StoreDb } from "../open";
import { isUnavailable, storeUnavailable } from "../errors";
import { toPostgres } from "../pg-translate";
import { arrayRows, objectRows, params as pgParams } from "../pg-values";

/** What one statement runs on: the read pool, or the write transaction's reserved connection. */
export interface PgRunner {
  unsafe(text: string, params?: unknown[]): PgQuery;
}
interface PgQuery extends PromiseLike<PgResult<Record<string, unknown>>> {
  values(): PromiseLike<PgResult<unknown[]>>;
}
type PgResult<R> = R[] & { count?: number | null; columns?: { name: string; type: number }[] };

/**
 * A drizzle sqlite-core database whose statements run on PostgreSQL through Bun.SQL (decision
 * 0041: the domain keeps its one query layer; the store translates). Built on drizzle's
 * sqlite-proxy, with one thing the proxy cannot know: a builder's select maps ARRAY rows by
 * position (it has `fields`, or a custom mapper), while a raw `db.all(sql`...`)` expects OBJECT
 * rows by name. Each prepared query is given a runner that knows which it is, as drizzle's
 * bun:sqlite session decides between `stmt.values()` and `stmt.all()`.
 *
 * `connection()` is asked at each statement: the read pool, or the reserved connection of the
 * write now open (a statement through the write database outside a write fails loudly).
 */
export function pgDatabase(connection: () => PgRunner): StoreDb {
  const dialect = new SQLiteAsyncDialect();
  const session = new PgSession(connection, dialect);
  return new SqliteRemoteDatabase("async", dialect, session as never, undefined) as unknown as StoreDb;
}

type Callback = (sql: string, params: unknown[], method: "run" | "all" | "values" | "get") => Promise<{ rows: unknown }>;

/** One statement: translated (cached per text), parameters as SQLite binds them, values as SQLite answers them. */
function runner(connection: () => PgRunner, arrayMode: boolean): Callback {
  return async (sqlite, params, method) => {
    const { text, params: wanted } = toPostgres(sqlite);
    if (wanted !== params.length) throw new Error(`${params.length} values for ${wanted} placeholders: ${sqlite.slice(0, 200)}`);
    const q = connection().unsafe(text, pgParams(params));
    if (method === "run") {
      const r = await q;
      return { rows: [], changes: r.count ?? 0 } as { rows: unknown };
    }
    if (arrayMode || method === "values") {
      const r = await q.values();
      const rows = arrayRows(r as unknown as unknown[][], r.columns);
      return { rows: method === "get" ? rows[0] : rows };
    }
    const r = await q;
    const rows = objectRows(r as unknown as Record<string, unknown>[], r.columns);
    return { rows: method === "get" ? rows[0] : rows };
  };
}

class PgSession extends SQLiteRemoteSession<Record<string, unknown>, never> {
  constructor(
    private readonly connection: () => PgRunner,
    dialect: SQLiteAsyncDialect,
  ) {
    super(runner(connection, false) as never, dialect, undefined);
  }

  override prepareQuery(
    query: Query,
    fields: SelectedFieldsOrdered | undefined,
    executeMethod: SQLiteExecuteMethod,
    isResponseInArrayMode: boolean,
    customResultMapper?: (rows: unknown[][]) => unknown,
    queryMetadata?: { type: "select" | "update" | "delete" | "insert"; tables: string[] },
  ): PgPreparedQuery {
    // Positional rows wherever drizzle maps them itself; named rows for raw SQL read as objects.
    const arrayMode = fields !== undefined || customResultMapper !== undefined;
    return new PgPreparedQuery(runner(this.connection, arrayMode) as never, query, new NoopLogger(), new NoopCache(), queryMetadata, undefined, fields, executeMethod, isResponseInArrayMode, customResultMapper);
  }

  // Transactions are the store's (store.write: the write lock, savepoints, group commit).
  override transaction(): never {
    throw new Error("db.transaction() is not used with the store: write through store.write()");
  }
}

/**
 * The proxy's prepared query, except for what a failure becomes: a lost or refused connection is
 * store_unavailable (503 with Retry-After) wherever the query ran, read or write; any other
 * failure is a StoreQueryError carrying the driver's error (its SQLSTATE) as `cause`.
 */
class PgPreparedQuery extends RemotePreparedQuery {
  async queryWithCache<T>(queryString: string, _params: unknown[], query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (e) {
      if (isUnavailable(e)) throw storeUnavailable(e);
      throw new StoreQueryError(queryString, e);
    }
  }
}

/**
 * A statement PostgreSQL refused, worded as bun:sqlite words a refusal: the server's own message
 * ("staff_audit is append-only", a trigger's "injected", "duplicate key value ..."), never the
 * parameters. drizzle's DrizzleQueryError puts "Failed query: <sql> params: <values>" in its
 * message, and messages reach the log (an unexpected failure is logged under its request id):
 * the values are passengers' names, documents' ciphertexts, whole order bodies. The statement's
 * text (no values) stays on `query` for whoever debugs it.
 */
export class StoreQueryError extends Error {
  constructor(
    readonly query: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "StoreQueryError";
  }
}
