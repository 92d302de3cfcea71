/**
 * Issue 23 groundwork (decision 0041): does the gateway need its own group commit on PostgreSQL?
 * A journal-like insert (actor_journal's shape: (kind, key, seq) primary key, a JSON payload,
 * a commit time) made durable one row per transaction against 32 rows per transaction (what the
 * SQLite commit queue does when 32 writers are ready in one tick), on PostgreSQL through Bun.sql
 * and on bun:sqlite in the same run (DESIGN 6: the machine is shared, report ratios). PostgreSQL
 * also runs 32 concurrent writers each committing its own row on its own connection: the server
 * shares one WAL flush between commits that arrive together, which is group commit without the
 * gateway's queue, at the price of a connection per writer in flight.
 *
 * Both engines are durable per COMMIT: PostgreSQL's defaults (fsync on, synchronous_commit on),
 * bun:sqlite in WAL with synchronous=FULL (the store's NORMAL plus its own -wal fsync is the same
 * durability). Statements are prepared (bun:sqlite) or sent with parameters (Bun.sql caches the
 * prepared statement per connection). Rounds alternate the engines so drift hits both.
 *
 *   node_modules/.bin/bun bench/pg-commit.ts [seconds-per-round=2] [rounds=3]
 *
 * PostgreSQL: GATEWAY_DATABASE_URL=postgres://... if set (the table pg_commit_bench is dropped and
 * made again), else a throwaway cluster from scripts/pg-throwaway.mjs, stopped at the end.
 * Last lines: one JSON object per engine and shape,
 * {"bench":"pg-commit","engine","shape","rowsPerSecond","commitsPerSecond"}, then
 * {"bench":"pg-commit","ratios":{...}} (postgres over sqlite per shape, 32-per-transaction over 1).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start, stop } from "../scripts/pg-throwaway.mjs";
import { median } from "./support";

const seconds = Number(process.argv[2] ?? 2);
const rounds = Number(process.argv[3] ?? 3);
const PAYLOAD = JSON.stringify({ type: "seat_held", flight: "XB0101-2027-01-12", seat: "12C", pax: "PAX1", by: "x".repeat(40) });
const BATCH = 32;

type Engine = "sqlite" | "postgres";
/**
 * One row per COMMIT from one writer; BATCH rows per COMMIT from one writer, one statement after
 * the other (PostgreSQL: a round trip each) or, on PostgreSQL, all sent at once on the
 * transaction's connection (pipelined); BATCH writers on BATCH connections, one row per COMMIT each.
 */
type Shape = "1-per-commit" | "32-per-commit" | "32-per-commit-pipelined" | "32-writers-1-per-commit";
const SHAPES: Shape[] = ["1-per-commit", "32-per-commit", "32-per-commit-pipelined", "32-writers-1-per-commit"];
/** bun:sqlite is synchronous in process: no round trips to pipeline, and 32 writers on its one connection are 1-per-commit. */
const SHAPES_OF: Record<Engine, Shape[]> = { sqlite: ["1-per-commit", "32-per-commit"], postgres: SHAPES };
interface Round {
  rows: number;
  commits: number;
  ms: number;
}

let next = 0;
/** A fresh (key, seq) each row: one key per writer, seq counting up as an actor's does. */
const row = (writer: number) => ({ key: `ORD-${writer}-${process.pid}`, seq: ++next });

// --- bun:sqlite --------------------------------------------------------------------------------
const dir = mkdtempSync(join(tmpdir(), "pg-commit-"));
const lite = new Database(join(dir, "bench.db"));
lite.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;");
lite.exec(`CREATE TABLE actor_journal (kind TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL CHECK (seq >= 1),
  payload TEXT NOT NULL CHECK (json_valid(payload)), committed_at INTEGER NOT NULL, PRIMARY KEY (kind, key, seq)) WITHOUT ROWID`);
const liteInsert = lite.prepare("INSERT INTO actor_journal (kind, key, seq, payload, committed_at) VALUES ('order', ?, ?, ?, ?)");
const liteTx = (rows: number, writer: number) =>
  lite.transaction(() => {
    for (let i = 0; i < rows; i++) {
      const r = row(writer);
      liteInsert.run(r.key, r.seq, PAYLOAD, Date.now());
    }
  })();

async function sqliteRound(shape: Shape, ms: number): Promise<Round> {
  const rowsPer = shape === "32-per-commit" ? BATCH : 1;
  const t0 = performance.now();
  let commits = 0;
  while (performance.now() - t0 < ms) {
    liteTx(rowsPer, commits % BATCH);
    commits++;
  }
  return { rows: commits * rowsPer, commits, ms: performance.now() - t0 };
}

// --- PostgreSQL through Bun.sql ----------------------------------------------------------------
const given = process.env.GATEWAY_DATABASE_URL;
const cluster = given?.startsWith("postgres") ? null : await start();
const stopCluster = () => {
  if (cluster) stop(cluster.dir);
};
process.on("SIGINT", () => {
  stopCluster();
  process.exit(130);
});
const pg = new Bun.SQL(given?.startsWith("postgres") ? given : cluster!.url, { max: BATCH });
await pg`DROP TABLE IF EXISTS pg_commit_bench`;
await pg`CREATE TABLE pg_commit_bench (kind text NOT NULL, key text NOT NULL, seq integer NOT NULL CHECK (seq >= 1),
  payload jsonb NOT NULL, committed_at bigint NOT NULL, PRIMARY KEY (kind, key, seq))`;
const [settings] = await pg`SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync, version() AS version`;
if (settings.fsync !== "on" || settings.sync !== "on") throw new Error(`PostgreSQL is not durable per commit: ${JSON.stringify(settings)}`);

async function pgTx(rows: number, writer: number, pipelined: boolean): Promise<void> {
  await pg.begin(async (tx) => {
    const insert = () => {
      const r = row(writer);
      return tx`INSERT INTO pg_commit_bench (kind, key, seq, payload, committed_at) VALUES ('order', ${r.key}, ${r.seq}, ${PAYLOAD}::jsonb, ${Date.now()})`;
    };
    if (pipelined) await Promise.all(Array.from({ length: rows }, insert));
    // One statement after the other, as the commit queue runs each ready writer's statements.
    else for (let i = 0; i < rows; i++) await insert();
  });
}

async function postgresRound(shape: Shape, ms: number): Promise<Round> {
  const writers = shape === "32-writers-1-per-commit" ? BATCH : 1;
  const rowsPer = shape.startsWith("32-per-commit") ? BATCH : 1;
  const t0 = performance.now();
  let commits = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      while (performance.now() - t0 < ms) {
        await pgTx(rowsPer, w, shape === "32-per-commit-pipelined");
        commits++;
      }
    }),
  );
  return { rows: commits * rowsPer, commits, ms: performance.now() - t0 };
}

// --- the run -----------------------------------------------------------------------------------
const rounders: Record<Engine, (s: Shape, ms: number) => Promise<Round>> = { sqlite: sqliteRound, postgres: postgresRound };
const results = new Map<string, Round[]>();
try {
  for (const e of ["sqlite", "postgres"] as Engine[]) for (const s of SHAPES_OF[e]) await rounders[e](s, 200); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const s of SHAPES) {
      for (const e of (r % 2 ? ["postgres", "sqlite"] : ["sqlite", "postgres"]) as Engine[]) {
        if (!SHAPES_OF[e].includes(s)) continue;
        const k = `${e}/${s}`;
        results.set(k, [...(results.get(k) ?? []), await rounders[e](s, seconds * 1000)]);
      }
    }
  }
} finally {
  await pg`DROP TABLE IF EXISTS pg_commit_bench`.catch(() => {});
  await pg.close();
  lite.close();
  rmSync(dir, { recursive: true, force: true });
  stopCluster();
}

const rate = (e: Engine, s: Shape, what: "rows" | "commits") => median(results.get(`${e}/${s}`)!.map((r) => r[what] / (r.ms / 1000)));
console.log(`durable journal inserts, median of ${rounds} x ${seconds}s, Bun ${Bun.version}, ${String(settings.version).split(" on ")[0]}`);
const lines: string[] = [];
for (const s of SHAPES) {
  for (const e of ["sqlite", "postgres"] as Engine[]) {
    if (!SHAPES_OF[e].includes(s)) continue;
    const rows = rate(e, s, "rows");
    const commits = rate(e, s, "commits");
    const all = results.get(`${e}/${s}`)!.map((r) => (r.rows / (r.ms / 1000)).toFixed(0)).join(", ");
    console.log(`  ${e.padEnd(8)} ${s.padEnd(24)} ${rows.toFixed(0).padStart(7)} rows/s ${commits.toFixed(0).padStart(6)} commits/s   rounds: ${all}`);
    lines.push(JSON.stringify({ bench: "pg-commit", engine: e, shape: s, rowsPerSecond: Math.round(rows), commitsPerSecond: Math.round(commits) }));
  }
}
const ratio = (a: number, b: number) => Number((a / b).toFixed(3));
const ratios = {
  postgresOverSqlite1PerCommit: ratio(rate("postgres", "1-per-commit", "rows"), rate("sqlite", "1-per-commit", "rows")),
  postgresOverSqlite32PerCommit: ratio(rate("postgres", "32-per-commit", "rows"), rate("sqlite", "32-per-commit", "rows")),
  postgres32PerCommitOver1: ratio(rate("postgres", "32-per-commit", "rows"), rate("postgres", "1-per-commit", "rows")),
  sqlite32PerCommitOver1: ratio(rate("sqlite", "32-per-commit", "rows"), rate("sqlite", "1-per-commit", "rows")),
  postgres32WritersOver1: ratio(rate("postgres", "32-writers-1-per-commit", "rows"), rate("postgres", "1-per-commit", "rows")),
  postgresPipelinedOverSqlite32PerCommit: ratio(rate("postgres", "32-per-commit-pipelined", "rows"), rate("sqlite", "32-per-commit", "rows")),
  postgres32PipelinedOver1: ratio(rate("postgres", "32-per-commit-pipelined", "rows"), rate("postgres", "1-per-commit", "rows")),
  postgres32PerCommitOver32Writers: ratio(rate("postgres", "32-per-commit", "rows"), rate("postgres", "32-writers-1-per-commit", "rows")),
};
for (const l of lines) console.log(l);
console.log(JSON.stringify({ bench: "pg-commit", ratios }));
