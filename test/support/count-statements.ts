import { Database } from "bun:sqlite";

/**
 * Counts the SQL statements bun:sqlite executes while `fn` runs, on every connection of the
 * process (the gateway's writer and reader, the simulated PSP's tables in the same file), by
 * SQL text. Importing this module patches `Database.prototype.prepare`, `query`, `run` and
 * `exec`, so it must be imported before the gateway under test opens its store (the statement
 * cache binds `prepare` when a connection opens; top-level imports run before beforeAll).
 * Outside `countStatements` the patched calls only pay a null check.
 */
export interface StatementCount {
  /** Every statement executed (a row-returning statement counts once however many rows it returns). */
  total: number;
  /** SELECT and PRAGMA. */
  reads: number;
  /** INSERT, UPDATE, DELETE (an UPSERT is one). */
  writes: number;
  /** BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE. */
  transaction: number;
  /** COMMITs alone: the durable commits (each followed by an fsync of the -wal file). */
  commits: number;
  /** Executions per SQL text (whitespace folded), for a failure message that says which one moved. */
  bySql: Map<string, number>;
}

let current: StatementCount | null = null;

function note(sqlText: string): void {
  const c = current;
  if (!c) return;
  const text = sqlText.replace(/\s+/g, " ").trim();
  c.total++;
  c.bySql.set(text, (c.bySql.get(text) ?? 0) + 1);
  const verb = text.slice(0, 9).toUpperCase();
  if (verb.startsWith("SELECT") || verb.startsWith("PRAGMA") || verb.startsWith("WITH")) c.reads++;
  else if (verb.startsWith("INSERT") || verb.startsWith("UPDATE") || verb.startsWith("DELETE") || verb.startsWith("REPLACE")) c.writes++;
  else {
    c.transaction++;
    if (verb.startsWith("COMMIT")) c.commits++;
  }
}

type Method = (...args: unknown[]) => unknown;
const counted = new WeakSet<object>();

function countedStatement<S extends object>(stmt: S, sqlText: string): S {
  if (counted.has(stmt)) return stmt;
  counted.add(stmt);
  const methods = stmt as unknown as Record<string, Method>;
  for (const m of ["run", "get", "all", "values", "iterate"]) {
    const f = methods[m];
    if (typeof f !== "function") continue;
    methods[m] = function (this: unknown, ...args: unknown[]) {
      note(sqlText);
      return f.apply(this, args);
    };
  }
  return stmt;
}

const proto = Database.prototype as unknown as Record<string, Method>;
for (const name of ["prepare", "query"]) {
  const original = proto[name]!;
  proto[name] = function (this: unknown, sqlText: unknown, ...rest: unknown[]) {
    return countedStatement(original.call(this, sqlText, ...rest) as object, String(sqlText));
  };
}
for (const name of ["run", "exec"]) {
  const original = proto[name]!;
  proto[name] = function (this: unknown, sqlText: unknown, ...rest: unknown[]) {
    note(String(sqlText));
    return original.call(this, sqlText, ...rest);
  };
}

export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; count: StatementCount }> {
  if (current) throw new Error("countStatements does not nest");
  const count: StatementCount = { total: 0, reads: 0, writes: 0, transaction: 0, commits: 0, bySql: new Map() };
  current = count;
  try {
    return { result: await fn(), count };
  } finally {
    current = null;
  }
}

/** The counts by SQL text, most executed first: what a failing pin prints. */
export function describeCount(c: StatementCount): string {
  return [...c.bySql].sort((a, b) => b[1] - a[1]).map(([sql, n]) => `${String(n).padStart(3)}  ${sql.slice(0, 140)}`).join("\n");
}
