import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { boot, freeSeats, shop, tempDir } from "./helpers";

/**
 * Two gateway processes on one store file (two connections, two actor systems, two instance
 * ids; real processes, since bun:sqlite's write lock waits synchronously), the same
 * OrderCreate sent to both at the same instant, several times: one order per key, whatever the
 * interleaving. Neither process's operation lock sees the other; the operation row's primary
 * key, the open phase's check of the row it read and the journal's (kind, key, seq) decide, and
 * the loser is answered request_in_progress (or replays the winner's answer), never a second
 * order, never an unexpected error.
 */
const WORKER = join(import.meta.dir, "../fixtures/orders-twice-worker.ts");
const tmp = tempDir();
afterAll(() => tmp.cleanup());
const N = 6;
const TOTAL = 21_500; // a passenger's fare and a seat (helpers.ts shop())

test("the same request at two gateway processes at once: one order, the other answered request_in_progress or with it", async () => {
  const b = await boot(tmp.url);
  const seats = freeSeats(b.supply);
  for (let i = 0; i < N; i++) expect((await shop(b, { tag: `twice-${i}`, seats: [seats[60 + i]!] })).total).toBe(TOTAL);
  await b.close();

  const startAt = Date.now() + 1_500;
  const run = () => {
    const child = Bun.spawn([process.execPath, WORKER, tmp.dir, String(N), String(startAt), String(TOTAL)], { stdout: "pipe", stderr: "pipe" });
    return Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  };
  const outs = await Promise.all([run(), run()]);
  for (const [, err, code] of outs) expect([err, code]).toEqual(["", 0]);
  const answers = outs.map(([out]) => out.trim().split("\n").map((l) => JSON.parse(l) as { i: number; answer: string }));

  const check = await boot(tmp.url);
  try {
    for (let i = 0; i < N; i++) {
      const orders = (await check.store.db.all(
        sql`SELECT order_id AS id, state FROM orders WHERE order_id IN (SELECT order_id FROM operations WHERE correlation_id = ${`corr-twice-${i}`})`,
      )) as { id: string; state: string }[];
      expect(orders.map((o) => o.state)).toEqual(["booked"]);
      const both = answers.map((a) => a[i]!.answer);
      for (const a of both) expect([orders[0]!.id, "request_in_progress"]).toContain(a);
      expect(both).toContain(orders[0]!.id);
      const seat = (await check.store.db.all(sql`SELECT status, holder FROM seat_inventory WHERE seat_id = ${seats[60 + i]!} AND status IN ('held', 'sold')`)) as unknown[];
      expect(seat).toEqual([{ status: "sold", holder: orders[0]!.id }]);
    }
    const legs = (await check.store.db.all(sql`SELECT state, count(*) AS n FROM payment_legs GROUP BY state`)) as { state: string; n: number }[];
    expect(legs).toEqual([{ state: "captured", n: N }]);
  } finally {
    await check.close();
  }
}, 60_000);
