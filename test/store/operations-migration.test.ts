import { afterAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { migrate, openStore, readMigrations, type Store } from "@ndc/store";

/**
 * Migration 0015 (issue 8 §1): the sagas and the request idempotency rows of a store written
 * before it become one operations table, row for row, and both old tables go.
 */
let store: Store;
afterAll(() => store?.close());

test("sagas and request_idempotency rows become operations: a saga with its request's lock or answer, a request refused before any saga, a payment retry", async () => {
  store = await openStore("file::memory:");
  const all = readMigrations();
  await migrate(store, all.filter((m) => m.version < "0015"));
  const plan = (corr: string, extra = {}) => JSON.stringify({ fingerprint: `saga-fp-${corr}`, request: { correlationId: corr, trxId: "T1" }, attempt: 1, seatHolds: [], partnerHolds: [], legCount: 1, ...extra });
  await store.write(async (tx) => {
    // A finished saga and its answer; a running one whose request died in flight; a compensated
    // one whose lock the reconciler released; a payment retry (no request).
    await tx.run(sql`INSERT INTO sagas VALUES ('SGC-DONE', 'order_create', 'ORD-1', 'client-a', 'AG', 'done', 'done', ${plan("C-DONE")}, NULL, 1, 5)`);
    await tx.run(sql`INSERT INTO sagas VALUES ('SGC-RUN', 'order_create', 'ORD-2', 'client-a', 'AG', 'holding', 'running', ${plan("C-RUN")}, NULL, 2, 6)`);
    await tx.run(sql`INSERT INTO sagas VALUES ('SGC-COMP', 'order_create', 'ORD-3', 'client-a', 'AG', 'holding', 'compensated', ${plan("C-COMP")}, 'reconciled', 3, 7)`);
    await tx.run(sql`INSERT INTO sagas VALUES ('SGR-1', 'payment_retry', 'ORD-1', 'client-a', 'AG', 'done', 'done', '{"changeRef":"retry-1"}', NULL, 4, 8)`);
    await tx.run(sql`INSERT INTO request_idempotency VALUES ('client-a', 'C-DONE', 'T1', 'rq-fp-done', 'done', 200, 'PE9yZGVyLz4=', NULL, 1, 9, NULL)`);
    await tx.run(sql`INSERT INTO request_idempotency VALUES ('client-a', 'C-RUN', 'T1', 'rq-fp-run', 'in_flight', NULL, NULL, 2, 2, NULL, 'dead-instance')`);
    // Refused before its holds: a stored answer and no saga.
    await tx.run(sql`INSERT INTO request_idempotency VALUES ('client-a', 'C-REF', 'T1', 'rq-fp-ref', 'done', 400, 'PEVycm9yLz4=', NULL, 3, 10, NULL)`);
  });
  expect(await migrate(store, all)).toEqual(all.filter((m) => m.version >= "0015").map((m) => m.version));
  const rows = (await store.db.all(
    sql`SELECT operation_id AS id, kind, correlation_id AS corr, fingerprint, order_id AS orderId, phase, status, lock_owner AS lock, response_status AS answered FROM operations ORDER BY created_at`,
  )) as Record<string, unknown>[];
  expect(rows).toEqual([
    { id: "SGC-DONE", kind: "order_create", corr: "C-DONE", fingerprint: "rq-fp-done", orderId: "ORD-1", phase: "done", status: "done", lock: null, answered: 200 },
    { id: "SGC-RUN", kind: "order_create", corr: "C-RUN", fingerprint: "rq-fp-run", orderId: "ORD-2", phase: "holding", status: "running", lock: "dead-instance", answered: null },
    { id: rows[2]!.id, kind: "order_create", corr: "C-REF", fingerprint: "rq-fp-ref", orderId: null, phase: "none", status: "answered", lock: null, answered: 400 },
    // Its request's row was released when it settled: no fingerprint (the saga's plan judges a retry).
    { id: "SGC-COMP", kind: "order_create", corr: "C-COMP", fingerprint: "", orderId: "ORD-3", phase: "holding", status: "compensated", lock: null, answered: null },
    { id: "SGR-1", kind: "payment_retry", corr: null, fingerprint: "", orderId: "ORD-1", phase: "done", status: "done", lock: null, answered: null },
  ]);
  const left = (await store.db.all(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('sagas', 'request_idempotency')`)) as unknown[];
  expect(left).toEqual([]);
});
