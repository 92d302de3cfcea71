/**
 * Durable commit rate of the store's write path, per driver, in one run (DESIGN 6: report a
 * ratio, the machine is shared and noisy). Each transaction inserts 4 rows through
 * Store.write (BEGIN IMMEDIATE ... COMMIT, WAL, synchronous=FULL), the shape of an actor
 * command (journal rows plus a state row). Rounds alternate the drivers so drift hits both.
 *
 *   node_modules/.bin/bun bench/store-commit.ts [seconds-per-round=2] [rounds=3]
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
  if (sync!.synchronous !== 2) throw new Error(`${driver}: synchronous is ${sync!.synchronous}, not FULL`);
  return store;
}

async function round(store: Store, ms: number): Promise<number> {
  let n = 0;
  const payload = JSON.stringify({ id: "x".repeat(40), by: 1 });
  const end = performance.now() + ms;
  const start = performance.now();
  while (performance.now() < end) {
    const seq = n * 4;
    await store.write(async (tx) => {
      for (let i = 1; i <= 4; i++) await tx.run(sql`INSERT INTO bench (k, seq, payload) VALUES ('k', ${seq + i}, ${payload})`);
    });
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

const stores = new Map<DriverName, Store>();
for (const d of drivers) stores.set(d, await prepare(d));
const results = new Map<DriverName, number[]>(drivers.map((d) => [d, []]));
for (const d of drivers) await round(stores.get(d)!, 200); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const d of r % 2 ? [...drivers].reverse() : drivers) results.get(d)!.push(await round(stores.get(d)!, seconds * 1000));
}
for (const s of stores.values()) await s.close();
rmSync(dir, { recursive: true, force: true });

const med = new Map(drivers.map((d) => [d, median(results.get(d)!)]));
console.log(`durable 4-row transactions/s (synchronous=FULL, WAL), median of ${rounds} x ${seconds}s, Bun ${Bun.version}`);
for (const d of drivers) console.log(`  ${d.padEnd(11)} ${med.get(d)!.toFixed(0).padStart(7)} tx/s   rounds: ${results.get(d)!.map((x) => x.toFixed(0)).join(", ")}`);
console.log(`  ratio libsql / bun-sqlite = ${(med.get("libsql")! / med.get("bun-sqlite")!).toFixed(2)}`);
