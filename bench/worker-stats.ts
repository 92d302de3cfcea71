/**
 * A diagnostic, not a benchmark: preloaded into every process of a serve tree (bench/scale-out.ts
 * with BENCH_STATS=1 passes it through BUN_OPTIONS, which the supervisor's children inherit), it
 * counts every bun:sqlite statement the process runs by SQL text (calls, wall time, SQLITE_BUSY
 * refusals) and how long the process held the database's write lock (each BEGIN IMMEDIATE that
 * took it to its COMMIT or ROLLBACK), and on SIGUSR2 writes the counters so far to
 * `$WORKER_STATS_DIR/<pid>.json` and the lock's intervals (epoch µs, a `--cpu-prof` profile's
 * clock, for bench/lock-profile.ts) to `<pid>.locks.json`, and the waits for it (first refused
 * BEGIN IMMEDIATE to the one that took it) to `<pid>.waits.json`. The bench signals before and after
 * each window and keeps the difference. Counting costs two `performance.now()` a statement, in
 * both serves alike. Wall time, not CPU: a statement whose thread another one preempted counts
 * the wait (which is what the other process waiting for the lock sees).
 */
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IN_LOCK, LOCK_HELD, YIELDED, type Stat } from "./worker-stats-rows";

const stats: Record<string, Stat> = {};
const DIR = process.env.WORKER_STATS_DIR;
let lockedAt: number | undefined;
/** Since the first refused BEGIN IMMEDIATE of a wait for the lock (another process held it). */
let waitingSince: number | undefined;
let batch = 0;
const lockIntervals: number[] = [];
const waitIntervals: number[] = [];
const epochUs = (t: number) => Math.round((performance.timeOrigin + t) * 1000);

function row(key: string): Stat {
  return (stats[key] ??= { n: 0, ms: 0, busy: 0 });
}

function add(key: string, t0: number, busy: boolean): void {
  const t1 = performance.now();
  const s = row(key);
  s.n++;
  s.ms += t1 - t0;
  if (busy) s.busy++;
  if (key === "BEGIN IMMEDIATE" && busy) waitingSince ??= t0;
  if (key === "BEGIN IMMEDIATE" && !busy) {
    lockedAt = t0;
    if (waitingSince !== undefined) waitIntervals.push(epochUs(waitingSince), epochUs(t0));
    waitingSince = undefined;
    const mine = ++batch;
    setImmediate(() => {
      if (lockedAt !== undefined && mine === batch) row(YIELDED).n++;
    });
  } else if (lockedAt !== undefined) {
    const inside = row(IN_LOCK);
    inside.n++;
    inside.ms += t1 - t0;
    if (key === "COMMIT" || key === "ROLLBACK") {
      const held = row(LOCK_HELD);
      held.n++;
      held.ms += t1 - lockedAt;
      lockIntervals.push(epochUs(lockedAt), epochUs(t1));
      lockedAt = undefined;
    }
  }
}

const isBusy = (e: unknown) => String((e as { code?: unknown })?.code ?? "").startsWith("SQLITE_BUSY");
const textOf = (sqlText: unknown) => String(sqlText).replace(/\s+/g, " ").slice(0, 200);
type Method = (...args: unknown[]) => unknown;

/** `f` counted under `key`. */
function counting(f: Method, key: () => string): Method {
  return function (this: unknown, ...args: unknown[]) {
    const t0 = performance.now();
    let busy = false;
    try {
      return f.apply(this, args);
    } catch (e) {
      busy = isBusy(e);
      throw e;
    } finally {
      add(key(), t0, busy);
    }
  };
}

const proto = Database.prototype as unknown as Record<string, Method>;
for (const name of ["prepare", "query"]) {
  const original = proto[name]!;
  proto[name] = function (this: unknown, sqlText: unknown, ...rest: unknown[]) {
    const stmt = original.call(this, sqlText, ...rest) as Record<string, Method>;
    const key = textOf(sqlText);
    for (const m of ["run", "get", "all", "values"]) if (typeof stmt[m] === "function") stmt[m] = counting(stmt[m], () => key);
    return stmt;
  };
}
for (const name of ["run", "exec"]) {
  const original = proto[name]!;
  proto[name] = function (this: unknown, sqlText: unknown, ...rest: unknown[]) {
    return counting(original, () => textOf(sqlText)).call(this, sqlText, ...rest);
  };
}

if (DIR) {
  process.on("SIGUSR2", () => {
    writeFileSync(join(DIR, `${process.pid}.json`), JSON.stringify({ pid: process.pid, role: process.argv.at(-1), stats }));
    writeFileSync(join(DIR, `${process.pid}.locks.json`), JSON.stringify(lockIntervals));
    writeFileSync(join(DIR, `${process.pid}.waits.json`), JSON.stringify(waitIntervals));
  });
}
