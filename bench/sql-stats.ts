/**
 * A diagnostic, not a benchmark: preloaded into a bench, it times every bun:sqlite statement the
 * process runs, by SQL text, and prints the slowest in total to stderr at exit. Only the native
 * call is timed (drizzle's row mapping is not), so the figures are what SQLite and the binding
 * cost. Used for docs/decisions/0006-booking-write-path.md, "The ceiling".
 *
 *   node_modules/.bin/bun --preload ./bench/sql-stats.ts bench/order-create.ts
 *
 * SQL_STATS_TOP (40): how many statements to print. SQL_STATS_AGAIN=1: run every SELECT a second
 * time right after, with the same parameters, and time that too ("again" lines): the difference
 * is what a cold start of the statement cost (on the read connection, the page cache SQLite
 * drops whenever another connection has written since its last read).
 */
import { Database } from "bun:sqlite";

interface Stat {
  n: number;
  ms: number;
}
const stats = new Map<string, Stat>();
const TOP = Number(process.env.SQL_STATS_TOP ?? 40);
const AGAIN = process.env.SQL_STATS_AGAIN === "1";

function add(key: string, ms: number): void {
  const s = stats.get(key) ?? { n: 0, ms: 0 };
  s.n++;
  s.ms += ms;
  stats.set(key, s);
}

type Method = (...args: unknown[]) => unknown;

function timed<S extends object>(stmt: S, sqlText: string): S {
  const methods = stmt as unknown as Record<string, Method>;
  const select = /^\s*select/i.test(sqlText);
  for (const m of ["run", "get", "all", "values"]) {
    const f = methods[m];
    if (typeof f !== "function") continue;
    methods[m] = function (this: unknown, ...args: unknown[]) {
      const t0 = performance.now();
      try {
        return f.apply(this, args);
      } finally {
        add(sqlText, performance.now() - t0);
        if (AGAIN && select) {
          const t1 = performance.now();
          f.apply(this, args);
          add(`again: ${sqlText}`, performance.now() - t1);
        }
      }
    };
  }
  return stmt;
}

const proto = Database.prototype as unknown as Record<string, Method>;
for (const name of ["prepare", "query"]) {
  const original = proto[name]!;
  proto[name] = function (this: unknown, sqlText: unknown, ...rest: unknown[]) {
    return timed(original.call(this, sqlText, ...rest) as object, String(sqlText));
  };
}
const run = proto.run!;
proto.run = function (this: unknown, sqlText: unknown, ...rest: unknown[]) {
  const t0 = performance.now();
  try {
    return run.call(this, sqlText, ...rest);
  } finally {
    add(String(sqlText), performance.now() - t0);
  }
};

process.on("exit", () => {
  const total = [...stats].filter(([k]) => !k.startsWith("again: ")).reduce((s, [, v]) => s + v.ms, 0);
  console.error(`SQL statements: ${total.toFixed(0)} ms in all; the ${TOP} slowest in total (ms, calls, µs per call):`);
  for (const [k, v] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, TOP)) {
    console.error(`${v.ms.toFixed(0).padStart(7)} ${String(v.n).padStart(7)} ${((1000 * v.ms) / v.n).toFixed(1).padStart(8)}  ${k.replace(/\s+/g, " ").slice(0, 160)}`);
  }
});
