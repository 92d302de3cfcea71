import { afterAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { migrate, openStore, readMigrations, type Store } from "@ndc/store";

/**
 * Migration 0059 (issue 8): operations is rebuilt as an ordinary rowid table (it was WITHOUT ROWID,
 * whose key B-tree held every stored answer's overflow pages). The rows of a store written before
 * it are kept byte for byte, its three indexes are there again and still decide (the request key
 * stays unique), and the table is no longer WITHOUT ROWID.
 */
let store: Store;
afterAll(() => store?.close());

const ROW = (id: string, client: string | null, trx: string, body: string | null) =>
  sql`INSERT INTO operations (operation_id, kind, client_id, correlation_id, trx_id, fingerprint, order_id, owner_client_id, owner_agency_id, phase, status, plan, error_code, lock_owner, locked_at, response_status, response_body, created_at, updated_at, completed_at)
      VALUES (${id}, 'order_create', ${client}, 'C-1', ${trx}, 'fp', 'ORD-1', 'cli-1', 'AG-1', 'done', 'done', '{"legs":1}', NULL, NULL, NULL, 200, ${body}, 1, 2, 3)`;

test("rows kept byte for byte, the indexes recreated, the request key still unique, no longer WITHOUT ROWID", async () => {
  store = await openStore("file::memory:");
  const all = readMigrations();
  await migrate(store, all.filter((m) => m.version < "0059"));
  const body = Buffer.from("<IATA_OrderViewRS/>".repeat(1200)).toString("base64");
  await store.write(async (tx) => {
    await tx.run(ROW("OP-1", "cli-1", "T1", body));
    await tx.run(ROW("OP-2", null, "T2", null));
  });
  const before = await store.db.all(sql`SELECT * FROM operations ORDER BY operation_id`);
  expect(await migrate(store, all)).toEqual(all.filter((m) => m.version >= "0059").map((m) => m.version));
  expect(await store.db.all(sql`SELECT * FROM operations ORDER BY operation_id`)).toEqual(before);
  const table = (await store.db.all(sql`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'operations'`)) as { sql: string }[];
  expect(table[0]!.sql).not.toContain("WITHOUT ROWID");
  const indexes = await store.db.all(sql`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'operations' AND name LIKE 'operations_%' ORDER BY name`);
  expect(indexes).toEqual([{ name: "operations_open" }, { name: "operations_order" }, { name: "operations_request" }]);
  // drizzle wraps SQLite's error; its cause names the constraint.
  const refusal = (q: ReturnType<typeof ROW>) =>
    store.write((tx) => tx.run(q)).then(
      () => "written",
      (e: { cause?: { message?: string } }) => e.cause?.message ?? String(e),
    );
  expect(await refusal(ROW("OP-3", "cli-1", "T1", null))).toContain("UNIQUE constraint failed: operations.client_id");
  expect(await refusal(ROW("OP-1", "cli-9", "T9", null))).toContain("UNIQUE constraint failed: operations.operation_id");
});
