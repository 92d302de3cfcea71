import { afterEach, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { afterCommit, type DriverName } from "@ndc/store";
import { openMigrated, tempDir } from "../actors/helpers";

/**
 * store.afterCommit (the staff audit's anchor rides on it): a callback runs once its write is
 * durable and visible to a fresh read, never for a write that rolled back, also when writes share
 * one group commit.
 */
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());

for (const driver of ["bun-sqlite", "libsql"] as DriverName[])
  test(`${driver}: after the COMMIT, with the row readable; never after a rollback`, async () => {
    tmp = tempDir("ndc-after-commit-");
    const store = await openMigrated(tmp.url, driver);
    await store.write((tx) => tx.run(sql`CREATE TABLE marks (id INTEGER PRIMARY KEY)`));
    const seen: string[] = [];
    const readable = async (id: number) => ((await store.db.all(sql`SELECT id FROM marks WHERE id = ${id}`)) as unknown[]).length === 1;
    const mark = (id: number, fail: boolean) =>
      store.write(async (tx) => {
        await tx.run(sql`INSERT INTO marks (id) VALUES (${id})`);
        afterCommit(tx, () => {
          seen.push(`committed ${id}`);
          // Once the COMMIT returned: a fresh read on the read connection finds the row.
          void readable(id).then((r) => seen.push(`${id} readable ${r}`));
        });
        if (fail) throw new Error("rolled back");
      });
    // Three writes queued in one tick: with group commit they share a transaction, each in its savepoint.
    const results = await Promise.allSettled([mark(1, false), mark(2, true), mark(3, false)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    await Bun.sleep(20);
    expect(seen.filter((s) => s.startsWith("committed")).sort()).toEqual(["committed 1", "committed 3"]);
    expect(seen.filter((s) => s.includes("readable")).sort()).toEqual(["1 readable true", "3 readable true"]);
    await store.close();
  });
