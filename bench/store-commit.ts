/**
 * Durable commit rate of the store's write path, per driver, in one run (DESIGN 6: report a
 * ratio, the machine is shared and noisy). Each transaction inserts 4 rows through
 * Store.write (BEGIN IMMEDIATE ... COMMIT, WAL; durable when the write settles: bun:sqlite
 * fsyncs its -wal file after a synchronous=NORMAL COMMIT, libSQL commits with synchronous=FULL),
 * the shape of an actor command (journal rows plus a state row), from 1 writer and from 32
 * concurrent writers (both drivers group-commit: writes ready in one tick share a COMMIT).
 * Rounds alternate the drivers so drift hits both.
 *
 *   node_modules/.bin/bun bench/store-commit.ts [seconds-per-round=2] [rounds=3]
 *
 * Last lines: one JSON object per driver and concurrency,
 * {"bench":"store-commit","driver","writers","writesPerSecond","commitsPerWrite"}.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openStore, type DriverName, type Store } from "@ndc/store";
import { median } from "./support";

const seconds = Number(process.argv[2] ?? 2);
const rounds = Number(process.argv[3] ?? 3);
const drivers: DriverName[] = ["bun-sqlite", "libsql"];
const dir = mkdtempSync(join(tmpdir(), "store-commit-"));

async function prepare(driver: DriverName): Promise<Store> {
  const store = await openStore(`file:${join(dir, `${driver}.db`)}`, { driver });
  await store.write((_tx, raw) =>
    raw.exec("CREATE TABLE IF NOT EXISTS bench (id INTEGER PRIMARY KEY, k TEXT NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL)"),
  );
  const [sync] = (await store.write((tx) => tx.all(sql`PRAGMA synchronous`))) as { synchronous: number }[];
  // bun:sqlite: NORMAL plus its own fsync of the -wal file before a write settles (drivers/wal-sync.ts).
  const expected = driver === "bun-sqlite" ? 1 : 2;
  if (sync!.synchronous !== expected) throw new Error(`${driver}: synchronous is ${sync!.synchronous}, not ${expected}`);
  return store;
}

const WRITERS = [1, 32] as const;
type Writers = (typeof WRITERS)[number];
interface Round {
  perSecond: number;
  commitsPerWrite: number;
}

async function round(store: Store, ms: number, writers: number): Promise<Round> {
  let n = 0;
  const payload = JSON.stringify({ id: "x".repeat(40), by: 1 });
  const before = store.commits.commits;
  const end = performance.now() + ms;
  const start = performance.now();
  const writer = async () => {
    while (performance.now() < end) {
      const seq = n++ * 4;
      await store.write(async (tx) => {
        for (let i = 1; i <= 4; i++) await tx.run(sql`INSERT INTO bench (k, seq, payload) VALUES ('k', ${seq + i}, ${payload})`);
      });
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
  return { perSecond: n / ((performance.now() - start) / 1000), commitsPerWrite: (store.commits.commits - before) / n };
}

const stores = new Map<DriverName, Store>();
for (const d of drivers) stores.set(d, await prepare(d));
const key = (d: DriverName, w: Writers) => `${d}/${w}`;
const results = new Map<string, Round[]>();
for (const d of drivers) await round(stores.get(d)!, 200, 1); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const w of WRITERS) {
    for (const d of r % 2 ? [...drivers].reverse() : drivers) {
      const k = key(d, w);
      results.set(k, [...(results.get(k) ?? []), await round(stores.get(d)!, seconds * 1000, w)]);
    }
  }
}
for (const s of stores.values()) await s.close();
rmSync(dir, { recursive: true, force: true });

console.log(`durable 4-row writes/s, median of ${rounds} x ${seconds}s, Bun ${Bun.version}`);
const lines: string[] = [];
for (const w of WRITERS) {
  for (const d of drivers) {
    const rs = results.get(key(d, w))!;
    const perSecond = median(rs.map((r) => r.perSecond));
    const commitsPerWrite = median(rs.map((r) => r.commitsPerWrite));
    console.log(`  ${d.padEnd(11)} writers ${String(w).padStart(2)} ${perSecond.toFixed(0).padStart(7)} writes/s, ${commitsPerWrite.toFixed(3)} COMMITs per write   rounds: ${rs.map((r) => r.perSecond.toFixed(0)).join(", ")}`);
    lines.push(JSON.stringify({ bench: "store-commit", driver: d, writers: w, writesPerSecond: Math.round(perSecond), commitsPerWrite: Number(commitsPerWrite.toFixed(3)) }));
  }
}
for (const l of lines) console.log(l);
