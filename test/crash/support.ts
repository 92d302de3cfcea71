/**
 * The real gateway process for the crash tests: `serve` from source, a shared data dir across
 * restarts, NDC calls over real HTTP with the sandbox API key, and a read-only look at the
 * database file to find half-finished work that no HTTP answer would show.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { databaseUrlFor, dropDatabaseFor } from "../support/database";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "bun:test";
import { eq, inArray, type SQL } from "drizzle-orm";
import { openStore, tables } from "@ndc/store";
import { sourceCli, startServer } from "../binary/processes";
import { T0 } from "../support/dates";
import { startSchedulerApp, storeEnv, workerOf, type SchedulerApp, type Worker } from "../multi/support";

export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "ndc-crash-"));
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      dropDatabaseFor(dir);
    },
  };
}

/**
 * The cleanups of a file whose tests each start gateways on a data directory of their own: push
 * them as the test goes, they run in reverse after its last test. The hook's budget is past bun's
 * 5 s default because on PostgreSQL each directory's database is dropped through psql (DROP
 * DATABASE ... WITH (FORCE), which waits for a checkpoint): 0.1-0.6 s each measured here, well
 * over 1 s on a loaded machine, one per test (a file of five timed out at 5 s).
 */
export function cleanupAfterAll(): (() => Promise<void> | void)[] {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  }, CLEANUP_MS);
  return cleanup;
}
const CLEANUP_MS = 60_000;

/**
 * A worker (its NDC calls are the in-process test gateway's, over a socket: same shape, so the
 * orders-http helpers take it; `ndcUnchecked` for the load, as xmllint runs synchronously here
 * and checking each answer would serialise the senders) with the scheduler app beside it.
 */
export interface Gateway extends Worker {
  /** The scheduler app beside it (expiry, the reconciler, dispatch...); null with ORDERS_BACKGROUND_MS=0. It dies with the gateway. */
  scheduler: SchedulerApp | null;
  /** SIGKILL: nothing flushed, nothing closed (what a power cut leaves). Resolves once the process (and its scheduler app) is gone. */
  kill(): Promise<void>;
}

/** Fast reconciliation: the scheduler app's orders jobs every second (croner's finest) on sagas of any age (ORDERS_RECONCILE_MIN_AGE_MS=0). */
const FAST_RECONCILE = { ORDERS_BACKGROUND_MS: "100", ORDERS_RECONCILE_MIN_AGE_MS: "0" };

/** When each data directory's first gateway started (real time), for its business clock. */
const firstStart = new Map<string, number>();

/**
 * The sandbox clock of a gateway on `dir`: the first starts at T0, as the in-process gateways do,
 * so the travel dates of the orders-http helpers are bookable whatever the real date; a restart
 * goes on from where real time has moved since, never back over what the orders recorded.
 */
function clockStart(dir: string): string {
  const now = Date.now();
  const first = firstStart.get(dir);
  if (first === undefined) {
    firstStart.set(dir, now);
    return new Date(T0).toISOString();
  }
  // The instant is read at the child's boot, a moment after this: a restart booting slower than
  // the first gateway would start behind its last instant. A few seconds ahead rules that out.
  return new Date(T0 + now - first + RESTART_MARGIN_MS).toISOString();
}
const RESTART_MARGIN_MS = 5_000;

/**
 * A gateway worker on `dir`, and beside it the scheduler app that reconciles what a crash left (unless
 * ORDERS_BACKGROUND_MS=0: a restart that must find the crash's work undecided). The pair stands
 * for what the gateway process was before issue 22: the scheduler app is killed when the gateway
 * dies, so a crashed gateway's work waits for the restart, as it did with the background pass.
 */
export async function startGateway(dir: string, env: Record<string, string> = {}): Promise<Gateway> {
  // A worker, not serve: serve would restart a gateway that killed itself at a crash point, and a
  // SIGKILL must hit the process that holds the actors. A worker runs no scheduled work: the
  // reconciler these suites wait for is the scheduler app's, started beside it (issue 22).
  // One business clock for both processes: the same start, anchored at the same real instant.
  const clock = { SANDBOX_CLOCK_START: clockStart(dir), SANDBOX_CLOCK_STARTED_AT: new Date().toISOString() };
  const run = await startServer(sourceCli, ["worker"], {
    ...storeEnv(dir),
    ...clock,
    PORT: "0",
    ...FAST_RECONCILE,
    ...env,
  });
  const withScheduler = (env.ORDERS_BACKGROUND_MS ?? FAST_RECONCILE.ORDERS_BACKGROUND_MS) !== "0";
  // The crash hook stays the gateway's: the scheduler app's reconciler must finish the work, not crash again.
  const { NDC_ORDERS_CRASH_AT: _crash, ...schedulerEnv } = env;
  const scheduler = withScheduler ? await startSchedulerApp(dir, { ...clock, ...FAST_RECONCILE, ...schedulerEnv }) : null;
  // However the gateway ends (SIGKILL, its own crash hook, a stop), the scheduler app ends with it.
  void run.proc.exited.then(() => scheduler?.kill());
  const worker = workerOf(run, dir);
  return {
    ...worker,
    scheduler,
    async kill() {
      await worker.kill();
      await scheduler?.kill();
    },
    async stop() {
      await scheduler?.stop();
      await worker.stop();
    },
  };
}

/** Waits for a process that is expected to kill itself (the saga's crash hook); kills it after `ms` if it does not. */
export async function exitedWithin(g: Gateway, ms: number): Promise<string | null> {
  const timer = setTimeout(() => g.run.proc.kill("SIGKILL"), ms);
  await g.run.proc.exited;
  clearTimeout(timer);
  await g.scheduler?.kill();
  const signal = g.run.proc.signalCode;
  return signal === null ? null : String(signal);
}

export interface Footprint {
  /** order id -> state, for every order in the index. */
  orders: Map<string, string>;
  /** Sagas not done or compensated. */
  openSagas: { sagaId: string; step: string }[];
  sagas: { sagaId: string; orderId: string; status: string; step: string; errorCode: string | null }[];
  /** Seat claims that still bind a seat (held or sold), with the order that holds them. */
  liveSeats: { holder: string; status: string; seatId: string }[];
  legs: { orderId: string; legId: string; state: string; kind: string; declineCode: string | null }[];
  /** What the simulated PSP (an outside system: it outlives the crash) still holds authorised. */
  pspAuthorised: string[];
  /** Requests' records (their operations' rows); `owner` is the instance id of the process holding one in flight. */
  idempotency: { correlationId: string; state: string; responseStatus: number | null; owner: string | null }[];
}

/**
 * Everything of OrderCreate the database holds, read through a second connection (WAL lets it
 * read beside a running gateway). `orderIds` narrows sagas, legs and seats to those orders.
 */
export async function footprint(dir: string, orderIds?: string[]): Promise<Footprint> {
  const store = await openStore(databaseUrlFor(dir));
  try {
    const db = store.db;
    const only = (col: Parameters<typeof inArray>[0]): SQL | undefined => (orderIds ? inArray(col, orderIds) : undefined);
    const orders = await db.select({ orderId: tables.orders.orderId, state: tables.orders.state }).from(tables.orders).where(only(tables.orders.orderId));
    // One operations table (issue 8): a saga is an operation that opened (it names an order),
    // a request's idempotency record is the row of the request's operation.
    const O = tables.operations;
    const ops = await db
      .select({ sagaId: O.operationId, orderId: O.orderId, status: O.status,  step: O.phase, errorCode: O.errorCode, correlationId: O.correlationId, responseStatus: O.responseStatus, owner: O.lockOwner })
      .from(O)
      .where(only(O.orderId));
    const sagas = ops.filter((o) => o.orderId !== null).map((o) => ({ sagaId: o.sagaId, orderId: o.orderId!, status: o.status, step: o.step, errorCode: o.errorCode }));
    const seats = await db
      .select({ holder: tables.seatInventory.holder, status: tables.seatInventory.status, seatId: tables.seatInventory.seatId })
      .from(tables.seatInventory)
      .where(inArray(tables.seatInventory.status, ["held", "sold"]));
    const legs = await db
      .select({ orderId: tables.paymentLegs.orderId, legId: tables.paymentLegs.legId, state: tables.paymentLegs.state, kind: tables.paymentLegs.kind, declineCode: tables.paymentLegs.declineCode })
      .from(tables.paymentLegs)
      .where(only(tables.paymentLegs.orderId));
    const psp = await db.select({ ref: tables.pspSimPayments.pspReference }).from(tables.pspSimPayments).where(eq(tables.pspSimPayments.state, "authorised"));
    const idem = ops
      .filter((o) => o.correlationId !== null)
      // done: answered; in_flight: its work running under a request's lock; unanswered: settled, no answer stored.
      .map((o) => ({ correlationId: o.correlationId!, state: o.responseStatus !== null ? "done" : o.status === "running" ? "in_flight" : "unanswered", responseStatus: o.responseStatus, owner: o.owner }));
    return {
      orders: new Map(orders.map((o) => [o.orderId, o.state])),
      openSagas: sagas.filter((s) => s.status === "running").map((s) => ({ sagaId: s.sagaId, step: s.step })),
      sagas,
      liveSeats: seats.filter((s) => !orderIds || orderIds.includes(s.holder)),
      legs,
      pspAuthorised: psp.map((p) => p.ref),
      idempotency: idem,
    };
  } finally {
    await store.close();
  }
}

/**
 * What a kill under OrderCreate load may leave once reconciled: every acknowledged order booked,
 * and nothing half done. An order that exists is booked (an unanswered request committed or not,
 * never in between); every leg is captured or voided, or declined psp_unavailable when the kill
 * came before the PSP saw it (docs/payments.md: a PSP that never saw the key authorised nothing);
 * no authorisation stranded at the PSP; seats only for booked orders.
 */
export function expectNothingHalfDone(f: Footprint, acknowledged: readonly string[]): void {
  for (const id of acknowledged) expect(f.orders.get(id)).toBe("booked");
  expect(f.openSagas).toEqual([]);
  expect([...f.orders.values()].filter((s) => s !== "booked")).toEqual([]);
  expect(f.legs.filter((l) => l.state === "authorised")).toEqual([]);
  const ended = (l: (typeof f.legs)[number]) => (l.state === "declined" && l.declineCode === "psp_unavailable" ? "never authorised" : l.state);
  for (const l of f.legs) expect([ended(l), f.orders.get(l.orderId) ?? "absent"]).toEqual(f.orders.has(l.orderId) ? ["captured", "booked"] : [expect.stringMatching(/^(voided|never authorised)$/), "absent"]);
  expect(f.pspAuthorised).toEqual([]);
  expect(f.liveSeats.filter((s) => f.orders.get(s.holder) !== "booked" || s.status !== "sold")).toEqual([]);
}

/** Polls until the scheduler app beside the restarted gateway has closed every saga (or `ms` passes). */
export async function reconciled(dir: string, ms = 10_000): Promise<Footprint> {
  const t0 = performance.now();
  for (;;) {
    const f = await footprint(dir);
    if (f.openSagas.length === 0 || performance.now() - t0 > ms) return f;
    await Bun.sleep(100);
  }
}

/** The error-level log lines a gateway printed so far (a crash test expects none from a clean recovery). */
export const errorLines = (gw: Gateway): string[] => (gw.run.stdout() + gw.run.stderr()).split("\n").filter((l) => l.includes('"level":"error"'));

/** What the database and the simulated PSP say of an order's refunds (the PSP outlives a crash: a refund paid twice shows there). */
export async function refundsOf(dir: string, orderId: string) {
  const store = await openStore(databaseUrlFor(dir));
  try {
    const legs = await store.db.select().from(tables.paymentLegs).where(eq(tables.paymentLegs.orderId, orderId));
    const refs = legs.map((l) => l.pspReference).filter((r): r is string => !!r);
    const psp = (await store.db.select().from(tables.pspSimPayments)).filter((p) => refs.includes(p.pspReference));
    const entries = await store.db.select().from(tables.paymentLedgerEntries).where(eq(tables.paymentLedgerEntries.orderId, orderId));
    return { ledgerRefunded: legs.reduce((s, l) => s + l.refunded, 0), pspRefunded: psp.reduce((s, p) => s + p.refunded, 0), refundEntries: entries.filter((e) => e.type === "refund").length };
  } finally {
    await store.close();
  }
}
