/**
 * The SQLite result code behind a store failure, whichever driver raised it. Drizzle wraps
 * driver errors ("Failed to run the query ...") with the driver's error as `cause`, and the
 * drivers name codes differently (bun:sqlite: SQLITE_CONSTRAINT_UNIQUE; libSQL: code
 * SQLITE_CONSTRAINT plus extendedCode), so callers test codes here, never messages.
 */
export function storeErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { extendedCode, code } = e as { extendedCode?: unknown; code?: unknown };
    if (typeof extendedCode === "string" && extendedCode.startsWith("SQLITE_")) return extendedCode;
    if (typeof code === "string" && code.startsWith("SQLITE_")) return code;
  }
  return undefined;
}

/** A UNIQUE, PRIMARY KEY, CHECK, NOT NULL or FOREIGN KEY constraint refused the write. */
export function isConstraintViolation(error: unknown): boolean {
  return storeErrorCode(error)?.startsWith("SQLITE_CONSTRAINT") ?? false;
}
