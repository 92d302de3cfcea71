import type { Database, Statement } from "bun:sqlite";

/**
 * Drizzle's bun:sqlite session calls `prepare(sql)` for every query it runs and never finalizes
 * the statement: each call compiles the SQL again (issue 8: 11 % of an OrderCreate) and leaves
 * the old statement to the garbage collector. Queries are a fixed set of shapes (every value is
 * a bound parameter), so the connection keeps the compiled statement per SQL text and hands it
 * back. Safe because bun:sqlite runs a statement to completion inside one synchronous call (and
 * resets it after), so two users of one statement never interleave. Bounded: past `max` shapes
 * the oldest is dropped from the map, not finalized (a holder of a drizzle `.prepare()` may
 * still use it; the collector finalizes it once nobody does).
 */
export function cacheStatements(conn: Database, max = 512): void {
  const compile = conn.prepare.bind(conn) as (sql: string) => Statement;
  const cache = new Map<string, Statement>();
  (conn as { prepare: unknown }).prepare = (sql: string, ...rest: unknown[]): Statement => {
    if (rest.length) return (compile as (sql: string, ...r: unknown[]) => Statement)(sql, ...rest);
    let stmt = cache.get(sql);
    if (stmt) return stmt;
    stmt = compile(sql);
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(sql, stmt);
    return stmt;
  };
}
