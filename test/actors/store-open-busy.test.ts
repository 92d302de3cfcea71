import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openStore } from "@ndc/store";
import { DRIVERS, tempDir } from "./helpers";

/**
 * Opening the store takes a lock (switching the file to WAL). A gateway restarted after a crash
 * can meet another process's lock for a moment: a reader closing and checkpointing, an
 * operator's tool. The open waits for it (busy_timeout, 5 s) instead of failing at once with
 * "database is locked", which made the crash tests' restarts flaky.
 */
const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

// Another process holds an exclusive lock on a file not yet in WAL mode for `ms`, then lets go.
const HOLDER = `
  import { Database } from "bun:sqlite";
  const db = new Database(process.argv[1]);
  db.exec("CREATE TABLE IF NOT EXISTS t (x)");
  db.exec("BEGIN EXCLUSIVE");
  db.exec("INSERT INTO t VALUES (1)");
  console.log("locked");
  await Bun.sleep(Number(process.argv[2]));
  db.exec("COMMIT");
  db.close();
`;

for (const driver of DRIVERS) {
  test(`${driver}: opening waits for another process's lock instead of failing with "database is locked"`, async () => {
    const tmp = tempDir("ndc-open-busy-");
    dirs.push(tmp);
    const file = join(tmp.dir, "gateway.db");
    const holder = Bun.spawn([process.execPath, "-e", HOLDER, file, "400"], { stdout: "pipe", stderr: "pipe" });
    const reader = holder.stdout.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.trim()).toBe("locked");
    const t0 = performance.now();
    const store = await openStore(`file:${file}`, { driver });
    const waited = performance.now() - t0;
    try {
      const [mode] = (await store.db.all(sql`PRAGMA journal_mode`)) as { journal_mode: string }[];
      expect(mode!.journal_mode).toBe("wal");
      // It did meet the lock: the open returned only once the holder had let go.
      expect(waited).toBeGreaterThan(100);
      expect(await holder.exited).toBe(0);
    } finally {
      await store.close();
    }
  });
}
