/**
 * PostgreSQL restarted under writes (issue 23 item 4, decision 0041's failure modes): while the
 * server is down every read and write fails with the one typed error the gateway answers 503 with
 * Retry-After (store_unavailable), never anything else; the same Store reconnects by itself; no
 * write that was acknowledged is lost. Its own cluster: the restart would disturb other files.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { isGatewayError } from "@ndc/errors";
import { openStore, type Store } from "@ndc/store";
import { pgBin, restartCluster, startCluster, stopCluster, type Cluster } from "./pg-support";

const acks = sqliteTable("acks", { id: text("id").primaryKey(), at: integer("at").notNull() });

let cluster: Cluster | undefined;
let store: Store | undefined;

afterAll(async () => {
  await store?.close().catch(() => undefined);
  stopCluster(cluster);
}, 60_000);

describe.skipIf(!pgBin)("PostgreSQL restarted under writes", () => {
  test("store_unavailable meanwhile, then the pool reconnects by itself and no acknowledged write is lost", async () => {
    cluster = startCluster();
    const s = (store = await openStore(cluster.url, { poolSize: 4 }));
    await s.write((_tx, raw) => raw.exec("CREATE TABLE acks (id text PRIMARY KEY, at bigint NOT NULL)"));

    const acknowledged: string[] = [];
    const failures: unknown[] = [];
    let restarted = false;
    let afterRestart = 0;
    let stop = false;
    let n = 0;
    const writer = async () => {
      while (!stop) {
        const id = `w${n++}`;
        try {
          await s.write((tx) => tx.insert(acks).values({ id, at: Date.now() }));
          acknowledged.push(id);
          if (restarted) afterRestart++;
        } catch (e) {
          failures.push(e);
          await Bun.sleep(20);
        }
      }
    };
    const reader = async () => {
      while (!stop) {
        try {
          await s.db.select().from(acks).where(eq(acks.id, "w0"));
        } catch (e) {
          failures.push(e);
        }
        await Bun.sleep(5);
      }
    };
    const loops = [writer(), writer(), writer(), reader()];
    await Bun.sleep(300);
    const before = acknowledged.length;
    // Synchronous here: the loops wait while pg_ctl runs (the event loop is blocked), then meet the
    // dead connections and the new server at once.
    restartCluster(cluster);
    restarted = true;
    const deadline = Date.now() + 15_000;
    while (afterRestart < 50 && Date.now() < deadline) await Bun.sleep(50);
    stop = true;
    await Promise.all(loops);

    expect(before).toBeGreaterThan(0);
    expect(afterRestart).toBeGreaterThanOrEqual(50);
    expect(failures.length).toBeGreaterThan(0);
    const kinds = failures.map((e) => (isGatewayError(e) ? `${e.code} retry-after ${e.retryAfterSeconds}` : String(e)));
    expect([...new Set(kinds)]).toEqual(["store_unavailable retry-after 1"]);
    // Every acknowledged write is there, on the same Store's new connections.
    const stored = new Set((await s.db.select({ id: acks.id }).from(acks)).map((r) => r.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    const [row] = await s.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM acks`);
    expect(row!.n).toBeGreaterThanOrEqual(acknowledged.length);
  }, 90_000);
});
