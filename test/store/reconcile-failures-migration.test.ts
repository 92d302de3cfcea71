import { afterAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { migrate, openStore, readMigrations, type Store } from "@ndc/store";

/**
 * Migration 0055 (issue 12 item 7): reconcile_failures is rebuilt so its resolution may also be
 * `captured` or `voided`; the rows of a store written before it are kept as they were, its open
 * index is there again, and a value outside the four is still refused.
 */
let store: Store;
afterAll(() => store?.close());

test("rows kept, captured and voided accepted, anything else refused, the open index recreated", async () => {
  store = await openStore("file::memory:");
  const all = readMigrations();
  await migrate(store, all.filter((m) => m.version < "0055"));
  await store.write(async (tx) => {
    await tx.run(sql`INSERT INTO reconcile_failures VALUES ('OP-OPEN', 'order_add', 'ORD-1', 'committed', 5, 'psp_unavailable', 1, 5, 5, NULL, NULL, NULL, NULL)`);
    await tx.run(sql`INSERT INTO reconcile_failures VALUES ('OP-DONE', 'order_cancel', 'ORD-2', 'committed', 5, 'psp_unavailable', 1, 5, 5, 'retry', 'agent-7', 9, 'PSP ticket 42')`);
  });
  await expect(store.write((tx) => tx.run(sql`UPDATE reconcile_failures SET resolution = 'captured' WHERE operation_id = 'OP-OPEN'`))).rejects.toMatchObject({ cause: { code: "SQLITE_CONSTRAINT_CHECK" } });
  expect(await migrate(store, all)).toEqual(all.filter((m) => m.version >= "0055").map((m) => m.version));
  const rows = await store.db.all(sql`SELECT operation_id AS id, kind, order_id AS orderId, attempts, raised_at AS raisedAt, resolution, resolved_by AS by, note FROM reconcile_failures ORDER BY operation_id`);
  expect(rows).toEqual([
    { id: "OP-DONE", kind: "order_cancel", orderId: "ORD-2", attempts: 5, raisedAt: 5, resolution: "retry", by: "agent-7", note: "PSP ticket 42" },
    { id: "OP-OPEN", kind: "order_add", orderId: "ORD-1", attempts: 5, raisedAt: 5, resolution: null, by: null, note: null },
  ]);
  await store.write((tx) => tx.run(sql`UPDATE reconcile_failures SET resolution = 'captured' WHERE operation_id = 'OP-OPEN'`));
  await store.write((tx) => tx.run(sql`UPDATE reconcile_failures SET resolution = 'voided' WHERE operation_id = 'OP-OPEN'`));
  await expect(store.write((tx) => tx.run(sql`UPDATE reconcile_failures SET resolution = 'ignored' WHERE operation_id = 'OP-OPEN'`))).rejects.toMatchObject({ cause: { code: "SQLITE_CONSTRAINT_CHECK" } });
  const indexes = await store.db.all(sql`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reconcile_failures' AND name = 'reconcile_failures_open'`);
  expect(indexes).toEqual([{ name: "reconcile_failures_open" }]);
});
