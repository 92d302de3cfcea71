import { GatewayError } from "@ndc/errors";

/**
 * The SQLite result code behind a store failure, whichever driver raised it. Drizzle wraps
 * driver errors ("Failed to run the query ...") with the driver's error as `cause`, and the
 * drivers name codes differently (bun:sqlite: SQLITE_CONSTRAINT_UNIQUE; libSQL: code
 * SQLITE_CONSTRAINT plus extendedCode; PostgreSQL: a SQLSTATE in `errno`, translated by
 * pgErrorCode below), so callers test codes here, never messages.
 */
export function storeErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { extendedCode, code } = e as { extendedCode?: unknown; code?: unknown };
    if (typeof extendedCode === "string" && extendedCode.startsWith("SQLITE_")) return extendedCode;
    if (typeof code === "string" && code.startsWith("SQLITE_")) return code;
    const pg = pgErrorCode(e);
    if (pg) return pg;
  }
  return undefined;
}

/** A UNIQUE, PRIMARY KEY, CHECK, NOT NULL or FOREIGN KEY constraint refused the write. */
export function isConstraintViolation(error: unknown): boolean {
  return storeErrorCode(error)?.startsWith("SQLITE_CONSTRAINT") ?? false;
}

/**
 * A PostgreSQL refusal under the SQLite name its callers already test (decision 0041): one
 * vocabulary of store failures for the domain, whatever the engine. A primary key is told from
 * another unique constraint by PostgreSQL's default name for it (`<table>_pkey`); the append-only
 * triggers raise SQLSTATE 23000 as SQLite's RAISE(ABORT) in a trigger is SQLITE_CONSTRAINT_TRIGGER.
 */
function pgErrorCode(e: object): string | undefined {
  const { errno, constraint } = e as { errno?: unknown; constraint?: unknown };
  if (typeof errno !== "string" || !/^[0-9A-Z]{5}$/.test(errno)) return undefined;
  switch (errno) {
    case "23505":
      return typeof constraint === "string" && constraint.endsWith("_pkey") ? "SQLITE_CONSTRAINT_PRIMARYKEY" : "SQLITE_CONSTRAINT_UNIQUE";
    case "23514":
      return "SQLITE_CONSTRAINT_CHECK";
    case "23502":
      return "SQLITE_CONSTRAINT_NOTNULL";
    case "23503":
      return "SQLITE_CONSTRAINT_FOREIGNKEY";
    case "23000":
    case "23001":
      return "SQLITE_CONSTRAINT_TRIGGER";
    case "25006":
      // A write sent to the read pool (its connections are read-only, as SQLite's reader is query_only).
      return "SQLITE_READONLY";
    default:
      return undefined;
  }
}

/**
 * Whether the database itself could not be reached: refused or lost connections, a server
 * shutting down or starting up (SQLSTATE classes 08 and 57P01-57P03). Not a refusal of this
 * write: the same request may succeed a moment later, once the pool has reconnected.
 */
export function isUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof GatewayError) return e.code === "store_unavailable";
    const { code, errno, message } = e as { code?: unknown; errno?: unknown; message?: unknown };
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    // 25P03: the server ended a write transaction left idle too long (drivers/postgres.ts).
    if (typeof errno === "string" && (errno.startsWith("08") || errno === "57P01" || errno === "57P02" || errno === "57P03" || errno === "25P03")) return true;
    if (typeof message === "string" && /the database system is (shutting down|starting up|in recovery mode)/.test(message)) return true;
  }
  return false;
}

/**
 * A failure of the store for now, not of the work: the database out of reach (store_unavailable,
 * isUnavailable) or busy (actor_busy: the write lock held past the wait, drivers/busy-wait.ts and
 * PostgreSQL's lock_timeout, or a key still moving after the actors' retries; a raw SQLITE_BUSY).
 * The same work may succeed a moment later. A saga failing so part-way is released by its process
 * (packages/orders, liveness/release.ts), so a retry on any process resumes it at once.
 */
export function isTransientStoreFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof GatewayError) return e.code === "store_unavailable" || e.code === "actor_busy";
  }
  return isUnavailable(error) || (storeErrorCode(error)?.startsWith("SQLITE_BUSY") ?? false);
}

/** Bun.SQL's codes for a connection that could not be made or was lost. */
const UNAVAILABLE_CODES = new Set([
  "ERR_POSTGRES_CONNECTION_REFUSED",
  "ERR_POSTGRES_CONNECTION_CLOSED",
  "ERR_POSTGRES_CONNECTION_TIMEOUT",
  "ERR_POSTGRES_IDLE_TIMEOUT",
  "ERR_POSTGRES_LIFETIME_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
]);

/**
 * The one failure a caller sees when the database is out of reach: 503 store_unavailable with
 * Retry-After, the seller's cue to try again (the pool reconnects by itself, about 0.3 s after a
 * fast restart: decision 0041). The driver's error stays as `cause`.
 */
export function storeUnavailable(cause: unknown): GatewayError {
  const detail = cause instanceof Error ? cause.message.slice(0, 120) : String(cause);
  const e = new GatewayError("store_unavailable", { detail: `(${detail})`, retryAfterSeconds: 1 });
  (e as { cause?: unknown }).cause = cause;
  return e;
}

/** Rethrows a connection failure as store_unavailable, anything else as it came. */
export function unavailableOr(error: unknown): unknown {
  return isUnavailable(error) && !(error instanceof GatewayError) ? storeUnavailable(error) : error;
}
