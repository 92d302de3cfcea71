/**
 * Values between drizzle's sqlite-core and PostgreSQL, so that the domain sees what SQLite hands
 * it (decision 0041). Every SQLite INTEGER is a PostgreSQL bigint, read as a BigInt (the pool is
 * opened with `bigint: true`, so no int8 is ever mistaken for a string) and handed on as a Number,
 * as bun:sqlite does; a value past 2^53 cannot be a Number without changing, so it is refused.
 * sum() over bigint is numeric in PostgreSQL (a string on the wire): a Number too. Booleans are
 * 0/1 both ways, as SQLite has no boolean type.
 */

const NUMERIC = 1700;

export class UnsafeInteger extends Error {
  constructor(value: bigint | string, column: string) {
    super(`column "${column}" holds ${value}, past Number.MAX_SAFE_INTEGER: the store hands integers on as Numbers (decision 0041)`);
    this.name = "UnsafeInteger";
  }
}

function int(v: bigint, column: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) throw new UnsafeInteger(v, column);
  return Number(v);
}

function numeric(v: string, column: string): number {
  const n = Number(v);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) throw new UnsafeInteger(v, column);
  return n;
}

function value(v: unknown, column: string, isNumeric: boolean): unknown {
  if (typeof v === "bigint") return int(v, column);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (isNumeric && typeof v === "string") return numeric(v, column);
  return v;
}

interface Column {
  name: string;
  type: number;
}

/** Rows as arrays (drizzle's builders map them by position), converted in place. */
export function arrayRows(rows: unknown[][], columns: readonly Column[] | undefined): unknown[][] {
  const numeric = columns?.map((c) => c.type === NUMERIC) ?? [];
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) row[i] = value(row[i], columns?.[i]?.name ?? String(i), numeric[i] === true);
  }
  return rows;
}

/** Rows as objects (raw `db.all(sql...)` reads them by name), converted in place. */
export function objectRows(rows: Record<string, unknown>[], columns: readonly Column[] | undefined): Record<string, unknown>[] {
  const numeric = new Set(columns?.filter((c) => c.type === NUMERIC).map((c) => c.name));
  for (const row of rows) {
    for (const k in row) row[k] = value(row[k], k, numeric.has(k));
  }
  return rows;
}

/** Parameters as SQLite would bind them: booleans as 1/0 (a bigint column refuses a boolean). */
export function params(values: unknown[]): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === "boolean" || v === undefined) {
      out ??= values.slice();
      out[i] = v === undefined ? null : v ? 1 : 0;
    }
  }
  return out ?? values;
}
