/**
 * The check of `migrate --to` (packages/store/src/to-postgres/copy.ts): a value PostgreSQL
 * changes on the way is caught by the read-back digest, reported per table, and the whole copy is
 * rolled back, the target left empty; a target holding a row the migrations did not seed is
 * refused before anything is written. SQLite keeps 1.5 in an INTEGER column as a REAL, and
 * PostgreSQL rounds 1.5 bound into a bigint to 2 without a word: only the check sees it.
 * Skipped with one line where PostgreSQL is not installed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyToPostgres, CopyRefused, migrate, openStore } from "@ndc/store";
import { pgBin, startCluster, stopCluster, type Cluster } from "./pg-support";

let cluster: Cluster | undefined;
const dir = mkdtempSync(join(tmpdir(), "ndc-copy-pg-"));
afterAll(() => {
  stopCluster(cluster);
  rmSync(dir, { recursive: true, force: true });
});

async function migrated(url: string): Promise<void> {
  const store = await openStore(url);
  try {
    await migrate(store);
  } finally {
    await store.close();
  }
}

describe.skipIf(!pgBin)("copyToPostgres", () => {
  test("a value PostgreSQL would round: MISMATCH on its table, rolled back; a target holding a row: refused by table", async () => {
    cluster = startCluster({ fast: true });
    const admin = new Bun.SQL({ url: cluster.url, max: 1 });
    await admin.unsafe("CREATE DATABASE rounding");
    await admin.close();
    const target = cluster.url.replace(/\/[^/]+$/, "/rounding");
    const sourcePath = join(dir, "gateway.db");
    await migrated(`file:${sourcePath}`);
    await migrated(target);
    const source = new Database(sourcePath);
    source.run("UPDATE registry_version SET version = 1.5");
    source.run("INSERT INTO sandbox_clocks (client_id, offset_ms, updated_at) VALUES ('c-1', 0, 1)");
    source.close();

    const lines: string[] = [];
    const result = await copyToPostgres({ sourcePath, targetUrl: target, onTable: (t) => lines.push(`${t.same ? "ok" : "MISMATCH"} ${t.table} ${t.source.rows} ${t.target.rows}`) });
    expect(result.committed).toBe(false);
    expect(result.tables.filter((t) => !t.same).map((t) => t.table)).toEqual(["registry_version"]);
    expect(lines).toContain("MISMATCH registry_version 1 1");
    expect(lines).toContain("ok sandbox_clocks 1 1");

    // Rolled back: the target holds what its migrations seeded and nothing else, triggers on again.
    const pg = new Bun.SQL({ url: target, bigint: true, max: 1 });
    expect(await pg.unsafe("SELECT id, version FROM registry_version")).toEqual([{ id: 1n, version: 1n }] as never);
    expect(await pg.unsafe("SELECT count(*) AS n FROM sandbox_clocks")).toEqual([{ n: 0n }] as never);
    expect(await pg.unsafe("SELECT count(*) AS n FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'")).toEqual([{ n: 0n }] as never);

    // A row of the target's own: refused, naming the table, nothing copied.
    await pg.unsafe("INSERT INTO sandbox_clocks (client_id, offset_ms, updated_at) VALUES ('mine', 0, 1)");
    await pg.close();
    const fixed = new Database(sourcePath);
    fixed.run("UPDATE registry_version SET version = 2");
    fixed.close();
    const refused = copyToPostgres({ sourcePath, targetUrl: target });
    await expect(refused).rejects.toBeInstanceOf(CopyRefused);
    await expect(refused).rejects.toThrow("the target already holds rows in sandbox_clocks (1 row(s))");
  }, 120_000);
});
