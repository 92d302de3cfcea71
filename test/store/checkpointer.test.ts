import { afterEach, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { openMigrated, tempDir } from "../actors/helpers";

/**
 * WAL checkpoints off the event loop (packages/store/src/drivers/checkpointer.ts): the bun:sqlite
 * writer's automatic checkpoint is off, a worker thread checkpoints PASSIVE after commits, so the
 * -wal file stays bounded while writes go on, and nothing committed is lost across a close.
 */
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());

const walBytes = (dir: string) => {
  try {
    return statSync(join(dir, "gateway.db-wal")).size;
  } catch {
    return 0;
  }
};

test("the writer's own checkpoint is off, and the worker keeps the -wal file bounded while 24 MB are written", async () => {
  tmp = tempDir("ndc-ckpt-");
  const store = await openMigrated(tmp.url, "bun-sqlite");
  const writer = ((await store.write(async (tx) => (tx as any).$client)) as Database);
  expect((writer.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint).toBe(0);
  await store.write((tx) => tx.run(sql`CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB NOT NULL)`));
  const body = new Uint8Array(256 * 1024).fill(7);
  let largestWal = 0;
  for (let i = 0; i < 96; i++) {
    await store.write((tx) => tx.run(sql`INSERT INTO blobs (body) VALUES (${body})`));
    largestWal = Math.max(largestWal, walBytes(tmp.dir));
    // Writes arrive over time, as requests do: the worker's checkpoint runs 200 ms after a commit.
    if (i % 8 === 7) await Bun.sleep(250);
  }
  // Without checkpoints the log would hold all 24 MB; SQLite's automatic one kept it near 4 MB.
  expect(largestWal).toBeLessThan(12 * 1024 * 1024);
  const rows = (await store.db.all(sql`SELECT count(*) AS n, sum(length(body)) AS bytes FROM blobs`)) as { n: number; bytes: number }[];
  expect(rows[0]).toEqual({ n: 96, bytes: 96 * body.length });
  await store.close();
  // Reopened: every acknowledged row is there.
  const again = new Database(join(tmp.dir, "gateway.db"), { readonly: true });
  expect(again.query("SELECT count(*) AS n FROM blobs").get()).toEqual({ n: 96 });
  again.close();
}, 60_000);
