import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Dialect, Store } from "./open";

/**
 * The few SQL forms that differ between SQLite and PostgreSQL (decision 0041, "The non-portable
 * spots"), one function each, chosen by the store's dialect. Everything else the domain writes is
 * SQL both engines read alike; a form that is not must come here rather than into a domain file.
 */

/**
 * A FROM item listing the elements of a JSON array of strings held as text, one row each, whose
 * `value` column is the element: `FROM t, ${jsonTextElements(d, t.col, "k")}` then `k.value`.
 * SQLite: json_each. PostgreSQL: jsonb_array_elements_text over the text cast to jsonb (the
 * column is text on both engines, decision 0041).
 */
export function jsonTextElements(dialect: Dialect, column: SQLWrapper, alias: string): SQL {
  const a = sql.raw(`"${alias}"`);
  return dialect === "postgres" ? sql`jsonb_array_elements_text(${column}::jsonb) AS ${a}(value)` : sql`json_each(${column}) AS ${a}`;
}

/**
 * A condition that keeps, of the rows `where` picks, only those no other transaction has locked,
 * and locks them for this one: a claim of queue rows (the notification outbox) by dispatchers on
 * several machines, who then neither wait on nor collide over a row. PostgreSQL:
 * `key IN (SELECT key ... WHERE .. FOR UPDATE SKIP LOCKED)`. SQLite has no row locks and needs
 * none: its writes are serial (BEGIN IMMEDIATE), so `where` as it is already sees every other
 * claim committed.
 */
export function unlockedRows(dialect: Dialect, table: SQLWrapper, key: SQLWrapper, where: SQL | undefined): SQL | undefined {
  if (dialect !== "postgres") return where;
  return sql`${key} IN (SELECT ${key} FROM ${table} WHERE ${where ?? sql`TRUE`} FOR UPDATE SKIP LOCKED)`;
}

/**
 * SUM over integers as an integer on both engines: PostgreSQL's SUM of bigint is numeric, which
 * its client hands back as a string; cast back to bigint (exact: minor units stay far below
 * 2^63). On SQLite the CAST is a no-op (SUM of INTEGER is INTEGER).
 */
export function integerSum(expr: SQL): SQL {
  return sql`CAST(SUM(${expr}) AS bigint)`;
}

/**
 * Now in epoch ms by the one clock every process of the store shares: the database's. Liveness
 * times (heartbeats, and judging them) come from it, so machines whose clocks disagree cannot
 * judge each other dead (decision 0041). SQLite: this host's clock, which every process on the
 * file shares anyway (no round trip). PostgreSQL: clock_timestamp() of the server.
 */
export async function databaseNow(store: Pick<Store, "dialect" | "db">): Promise<number> {
  if (store.dialect !== "postgres") return Date.now();
  const row = await store.db.get<{ now: number | bigint | string }>(sql`SELECT CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS bigint) AS now`);
  return Number(row!.now);
}

/**
 * `param IS NULL` for a bound parameter, read alike by both engines: PostgreSQL cannot type a
 * parameter that only meets IS NULL ("could not determine data type of parameter"; Bun.SQL sends
 * strings and NULL untyped), so it is cast first. On SQLite the CAST changes nothing.
 */
export function isNullParam(param: SQLWrapper, type: "text" | "bigint"): SQL {
  return sql`CAST(${param} AS ${sql.raw(type)}) IS NULL`;
}

/**
 * Whether `value` is one of the words of `list`, a parameter written `|a|b|c|`. SQLite's instr has
 * no PostgreSQL twin of the same name (strpos); replace() is the same function on both: the list
 * loses something exactly when `|value|` occurs in it. No LIKE: `_` in a value would be a wildcard.
 */
export function inPipeList(list: SQLWrapper, value: SQLWrapper): SQL {
  return sql`replace(${list}, '|' || ${value} || '|', '') <> ${list}`;
}
