import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { footprint, expectNothingHalfDone } from "../crash/support";
import { orderCreateRQ, orderIdOf, shopOffer, TRAVEL_DATE } from "../orders-http/helpers";
import { ON_POSTGRES, SQLITE_FILE_ONLY } from "../support/database";
import { errorCode } from "../support/gateway";
import { multiDataDir, type Worker } from "./support";

/**
 * A request refused mid-saga by a moment of outage (decision 0040's addendum "abandoned by its own
 * process", 0041's failure mode): worker A's OrderCreate saga is paused right after its open write
 * (NDC_ORDERS_PAUSE_AT), another process then holds the database file's write lock for 12 s, so
 * the PSP's write and then the compensation's fail with actor_busy and the request is answered
 * 503. The operation is left running under A, a live process. The seller's retry after the lock
 * is gone must get its order within seconds, on A itself and on worker B, instead of
 * request_in_progress until the reconciler's 10-minute grace for live owners (no scheduler app
 * runs here: the retries alone must finish it). On PostgreSQL the same failure is the server
 * restarted: test/machines/postgres-restart.test.ts.
 */
if (ON_POSTGRES) console.log(`test/multi/outage-mid-saga.test.ts skipped: ${SQLITE_FILE_ONLY}`);

const PAUSE_MS = 1_000;
const LOCK_MS = 12_000;
const data = multiDataDir();
afterAll(() => data.close());
let a: Worker | undefined;
let b: Worker | undefined;

// Another process takes the write lock, says so, holds it for argv[2] ms, then lets it go.
const HOLDER = `
  import { Database } from "bun:sqlite";
  const db = new Database(process.argv[1]);
  db.exec("BEGIN IMMEDIATE");
  console.log("locked");
  await Bun.sleep(Number(process.argv[2]));
  db.exec("ROLLBACK");
  db.close();
`;

async function holdWriteLock(ms: number) {
  const holder = Bun.spawn([process.execPath, "-e", HOLDER, join(data.dir, "gateway.db"), String(ms)], { stdout: "pipe", stderr: "pipe" });
  const first = new TextDecoder().decode((await holder.stdout.getReader().read()).value);
  expect(first.trim()).toBe("locked");
  return holder;
}

async function workers(): Promise<{ a: Worker; b: Worker }> {
  a ??= await data.startWorker({ NDC_ORDERS_PAUSE_AT: `after_holds:${PAUSE_MS}` });
  b ??= await data.startWorker();
  return { a, b };
}

/** Sends `rq` to A, takes the write lock while its saga is paused after the open write; resolves with A's answer and the holder. */
async function refusedMidSaga(w: Worker, rq: string, correlationId: string) {
  const answer = w.ndcUnchecked("OrderCreateRQ", rq);
  const t0 = performance.now();
  while (!(await footprint(data.dir)).idempotency.some((r) => r.correlationId === correlationId && r.state === "in_flight")) {
    if (performance.now() - t0 > PAUSE_MS) throw new Error("the saga's open write was not seen while it paused");
    await Bun.sleep(20);
  }
  const holder = await holdWriteLock(LOCK_MS);
  const refused = await answer;
  expect([refused.status, errorCode(refused.body), refused.headers.get("retry-after")]).toEqual([503, "actor_busy", "1"]);
  // Left running under A's lock, short of its commit: what the old code then kept for 10 minutes.
  const left = await footprint(data.dir);
  expect(left.idempotency.filter((r) => r.correlationId === correlationId).map((r) => [r.state, r.owner !== null])).toEqual([["in_flight", true]]);
  return holder;
}

/** The seller's retries, one a second (Retry-After: 1), until the order or `ms`; the answers on the way. */
async function retryUntilBooked(w: Worker, rq: string, ms: number): Promise<{ orderId?: string; answers: string[]; afterMs: number }> {
  const answers: string[] = [];
  const t0 = performance.now();
  for (;;) {
    const r = await w.ndcUnchecked("OrderCreateRQ", rq);
    if (r.status === 200) return { orderId: orderIdOf(r.body), answers, afterMs: performance.now() - t0 };
    answers.push(`${r.status} ${errorCode(r.body)}`);
    if (performance.now() - t0 > ms) return { answers, afterMs: performance.now() - t0 };
    await Bun.sleep(1_000);
  }
}

for (const where of ["the same worker", "another worker"] as const) {
  test.skipIf(ON_POSTGRES)(
    `OrderCreate refused with actor_busy mid-saga (its compensation refused too): the retry on ${where} books the order within seconds once the store is back`,
    async () => {
      const w = await workers();
      const retryOn = where === "the same worker" ? w.a : w.b;
      const correlationId = `OUTAGE-${where === "the same worker" ? "SAME" : "OTHER"}`;
      const shopped = await shopOffer(w.b, { date: TRAVEL_DATE });
      const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId, trxId: "T1" });
      const holder = await refusedMidSaga(w.a, rq, correlationId);
      await holder.exited;

      const retried = await retryUntilBooked(retryOn, rq, 15_000);
      console.log(`retry on ${where}: ${retried.orderId ? `booked after ${Math.round(retried.afterMs)} ms` : "never booked"}; before that ${JSON.stringify(retried.answers)}`);
      expect(retried.orderId).toBeDefined();
      expect(retried.afterMs).toBeLessThan(5_000);
      // The same order, checked against the schema, from either worker; nothing half done.
      for (const x of [w.a, w.b]) expect(orderIdOf((await x.ndc("OrderCreateRQ", rq)).body)).toBe(retried.orderId!);
      const f = await footprint(data.dir, [retried.orderId!]);
      expect(f.orders.get(retried.orderId!)).toBe("booked");
      expect(f.legs.map((l) => l.state)).toEqual(["captured"]);
      expectNothingHalfDone(await footprint(data.dir), [retried.orderId!]);
    },
    60_000,
  );
}
