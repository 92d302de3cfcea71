/**
 * Issue 23 step 1 (decision 0041): does the PostgreSQL store gain from the commit queue's group
 * commit? On PostgreSQL every write transaction takes the one cluster-wide write lock first, so
 * commits are serial (one WAL flush each) and PostgreSQL's own sharing of flushes among concurrent
 * commits cannot help; the queue lets the writes ready in one tick share one lock and one COMMIT,
 * each in a savepoint. 32 writers, each looping over a single-row journal-like insert through
 * store.write(), on the real store (packages/store/src/drivers/postgres.ts): batched (the default,
 * up to 64 writes per COMMIT) against one transaction each (maxBatch 1). Rounds alternate the two.
 *
 *   node_modules/.bin/bun bench/pg-group-commit.ts [seconds-per-round=2] [rounds=3]
 *
 * GATEWAY_DATABASE_URL=postgres://... if set (table pg_group_commit_bench dropped and made again),
 * else a throwaway cluster from scripts/pg-throwaway.mjs, stopped at the end. Last lines:
 * {"bench":"pg-group-commit","mode","writesPerSecond","commitsPerSecond","writesPerCommit"} per
 * mode, then {"bench":"pg-group-commit","batchedOverOneEach":..}.
 */
import { sql } from "drizzle-orm";
import { openPostgres } from "../packages/store/src/drivers/postgres";
import { start, stop } from "../scripts/pg-throwaway.mjs";
import { median } from "./support";

const seconds = Number(process.argv[2] ?? 2);
const rounds = Number(process.argv[3] ?? 3);
const WRITERS = 32;
const PAYLOAD = JSON.stringify({ type: "seat_held", flight: "XB0101-2027-01-12", seat: "12C", pax: "PAX1", by: "x".repeat(40) });

const given = process.env.GATEWAY_DATABASE_URL;
const cluster = given?.startsWith("postgres") ? null : await start();
const url = cluster?.url ?? given!;
type Mode = "batched" | "one-each";
const stores = { batched: await openPostgres(url, { poolSize: 2 }), "one-each": await openPostgres(url, { poolSize: 2, maxBatch: 1 }) };
try {
  await stores.batched.exec(
    "DROP TABLE IF EXISTS pg_group_commit_bench; CREATE TABLE pg_group_commit_bench (kind text NOT NULL, key text NOT NULL, seq bigint NOT NULL, payload text NOT NULL, committed_at bigint NOT NULL, PRIMARY KEY (kind, key, seq))",
  );
  const [v] = await stores.batched.db.all<{ v: string }>(sql`SELECT current_setting('server_version') AS v`);
  console.log(`${WRITERS} writers, single-row writes through store.write(), median of ${rounds} x ${seconds}s, Bun ${Bun.version}, PostgreSQL ${v!.v}`);
  let seq = 0;
  const round = async (mode: Mode) => {
    const s = stores[mode];
    const before = { ...s.commits };
    const end = performance.now() + seconds * 1000;
    let writes = 0;
    const writer = async (w: number) => {
      while (performance.now() < end) {
        const n = ++seq;
        await s.write((tx) => tx.run(sql`INSERT INTO pg_group_commit_bench (kind, key, seq, payload, committed_at) VALUES ('order', ${`ORD-${w}`}, ${n}, ${PAYLOAD}, ${Date.now()})`));
        writes++;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    const ms = performance.now() - t0;
    return { writes: (writes * 1000) / ms, commits: ((s.commits.commits - before.commits) * 1000) / ms };
  };
  const results: Record<Mode, { writes: number; commits: number }[]> = { batched: [], "one-each": [] };
  for (let r = 0; r < rounds; r++) for (const mode of ["batched", "one-each"] as Mode[]) results[mode].push(await round(mode));
  const lines: Record<string, number> = {};
  for (const mode of ["batched", "one-each"] as Mode[]) {
    const writes = Math.round(median(results[mode].map((x) => x.writes)));
    const commits = Math.round(median(results[mode].map((x) => x.commits)));
    lines[mode] = writes;
    console.log(`  ${mode.padEnd(9)} ${String(writes).padStart(6)} writes/s ${String(commits).padStart(6)} commits/s   rounds: ${results[mode].map((x) => Math.round(x.writes)).join(", ")}`);
    console.log(JSON.stringify({ bench: "pg-group-commit", mode, writesPerSecond: writes, commitsPerSecond: commits, writesPerCommit: Math.round((writes / Math.max(commits, 1)) * 10) / 10 }));
  }
  console.log(JSON.stringify({ bench: "pg-group-commit", batchedOverOneEach: Math.round((lines.batched! / lines["one-each"]!) * 100) / 100 }));
} finally {
  await stores.batched.exec("DROP TABLE IF EXISTS pg_group_commit_bench").catch(() => undefined);
  await Promise.all([stores.batched.close(), stores["one-each"].close()]);
  if (cluster) stop(cluster.dir);
}
