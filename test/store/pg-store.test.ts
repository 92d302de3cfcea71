/**
 * The PostgreSQL store (issue 23 step 1, decision 0041) on a real throwaway cluster: the domain's
 * own sqlite-core queries (the actors' journal, the operations table) run translated and answer
 * what SQLite answers; write() means what it means on SQLite (one cluster-wide write lock, so a
 * read-then-write inside it is serial across machines); the journal's primary key decides a race
 * with the SQLite code its callers test; writes ready together share one COMMIT.
 * Two Store objects on one database stand for two machines.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { appendEvents, loadSnapshot, readEvents, saveSnapshot } from "@ndc/actors";
import { isGatewayError } from "@ndc/errors";
import { OperationStore, writeAnswer, writeOpen, writePhase, type OperationRow } from "../../packages/orders/src/operation/store";
import { afterCommit, atEndOfWrite, isConstraintViolation, openStore, storeErrorCode, type Store } from "@ndc/store";
import { WRITE_LOCK_KEY } from "../../packages/store/src/drivers/postgres";
import { pgBin, startCluster, stopCluster, type Cluster } from "./pg-support";

// The gateway's tables in PostgreSQL DDL (every SQLite INTEGER a bigint), written by hand until
// the PostgreSQL migrations land; the columns and keys are those of schemas/migrations.
const DDL = `
CREATE TABLE actor_journal (kind text NOT NULL, key text NOT NULL, seq bigint NOT NULL, payload text NOT NULL, committed_at bigint NOT NULL, PRIMARY KEY (kind, key, seq));
CREATE TABLE actor_snapshots (kind text NOT NULL, key text NOT NULL, seq bigint NOT NULL, state text NOT NULL, updated_at bigint NOT NULL, PRIMARY KEY (kind, key));
CREATE TABLE operations (
  operation_id text PRIMARY KEY, kind text NOT NULL, client_id text, correlation_id text, trx_id text, fingerprint text NOT NULL,
  order_id text, owner_client_id text, owner_agency_id text, phase text NOT NULL, status text NOT NULL, plan text, error_code text,
  lock_owner text, locked_at bigint, response_status bigint, response_body text, created_at bigint NOT NULL, updated_at bigint NOT NULL, completed_at bigint);
CREATE UNIQUE INDEX operations_request ON operations (client_id, correlation_id, trx_id, kind) WHERE client_id IS NOT NULL;
CREATE TABLE counters (name text PRIMARY KEY, value bigint NOT NULL, flag bigint NOT NULL DEFAULT 0, blob bytea, ratio double precision);
`;

const counters = sqliteTable("counters", {
  name: text("name").primaryKey(),
  value: integer("value").notNull(),
  flag: integer("flag", { mode: "boolean" }).notNull().default(false),
  ratio: integer("ratio"),
});

/** What a query failed with (drizzle's queries are thenables, not promises). */
const failure = (q: unknown): Promise<unknown> => Promise.resolve(q).then(() => "no failure", (e: unknown) => e);
/** The driver-side reason under the store's StoreQueryError. */
const reason = async (q: unknown): Promise<string> => String(((await failure(q)) as { cause?: unknown }).cause);

let cluster: Cluster | undefined;
const opened: Store[] = [];
async function open(poolSize = 4): Promise<Store> {
  const s = await openStore(cluster!.url, { poolSize });
  opened.push(s);
  return s;
}

describe.skipIf(!pgBin)("the PostgreSQL store", () => {
  beforeAll(async () => {
    cluster = startCluster();
    const s = await open();
    await s.write((_tx, raw) => raw.exec(DDL));
  }, 60_000);

  afterAll(async () => {
    for (const s of opened) await s.close().catch(() => undefined);
    stopCluster(cluster);
  }, 60_000);

  test("opens postgres:// as the postgres driver and dialect, with no data_version counter", async () => {
    const s = await open();
    expect({ driver: s.driver, dialect: s.dialect, others: s.othersCommitted }).toEqual({ driver: "postgres", dialect: "postgres", others: undefined });
    await expect(openStore(cluster!.url.replace(/:\d+\//, ":1/"))).rejects.toThrow(/cannot reach PostgreSQL at postgres:\/\/gateway@127\.0\.0\.1:1\/gateway/);
 
    // A database that would change or refuse text SQLite stores is refused at open.
    const admin = new Bun.SQL({ url: cluster!.url, max: 1 });
    await admin.unsafe("CREATE DATABASE ascii ENCODING 'SQL_ASCII' LOCALE 'C' TEMPLATE template0");
    await admin.close();
    await expect(openStore(cluster!.url.replace(/\/gateway$/, "/ascii"))).rejects.toThrow(/is encoded SQL_ASCII: the gateway needs UTF8/);
  }, 60_000);

  test("the actors' journal round-trips: prepared inserts and reads, the snapshot upsert that never moves back", async () => {
    const s = await open();
    const now = Date.now();
    await s.write((tx) => appendEvents(tx, { kind: "order", key: "RT1", afterSeq: 0, now }, [{ type: "created", total: 12_345 }, { type: "paid" }]));
    expect(await readEvents(s.db, "order", "RT1")).toEqual([
      { seq: 1, payload: { type: "created", total: 12_345 }, committedAt: now },
      { seq: 2, payload: { type: "paid" }, committedAt: now },
    ]);
    expect(await readEvents(s.db, "order", "RT1", 1)).toEqual([{ seq: 2, payload: { type: "paid" }, committedAt: now }]);
    await s.write((tx) => saveSnapshot(tx, { kind: "order", key: "RT1", seq: 2, now }, { v: 2 }));
    // excluded.seq > actor_snapshots.seq: an older snapshot leaves the newer one in place.
    await s.write((tx) => saveSnapshot(tx, { kind: "order", key: "RT1", seq: 1, now }, { v: 1 }));
    expect(await loadSnapshot(s.db, "order", "RT1")).toEqual({ seq: 2, state: { v: 2 } });
    await s.write((tx) => saveSnapshot(tx, { kind: "order", key: "RT1", seq: 3, now }, { v: 3 }));
    expect(await loadSnapshot(s.db, "order", "RT1")).toEqual({ seq: 3, state: { v: 3 } });
  });

  test("the operations table round-trips: insert, update with placeholders in set, the answer upsert with returning", async () => {
    const s = await open();
    const ops = new OperationStore(s);
    const now = 1_796_000_000_000;
    const row: OperationRow<{ legs: number }> = {
      operationId: "OP-RT1", kind: "order_create", request: { clientId: "C1", correlationId: "corr", trxId: "trx" }, fingerprint: "fp",
      orderId: "ORD1", owner: { clientId: "C1", agencyId: "AG" }, phase: "opened", status: "running", plan: { legs: 2 }, createdAt: now, updatedAt: now,
    };
    await s.write((tx) => writeOpen(tx, row, undefined, "me", now));
    const loaded = await ops.load<{ legs: number }>("OP-RT1");
    expect(loaded).toMatchObject({ operationId: "OP-RT1", plan: { legs: 2 }, lockOwner: "me", status: "running", createdAt: now, answer: undefined });
    expect((await ops.byRequest("order_create", row.request!))?.operationId).toBe("OP-RT1");
    await s.write((tx) => writePhase(tx, "OP-RT1", "held", now + 1));
    expect((await ops.open(now + 5)).map((o) => o.phase)).toEqual(["held"]);
    expect((await ops.open(now, undefined, new Set(["me", "other"]))).map((o) => o.operationId)).toEqual(["OP-RT1"]);
    // The reopen's seenAt check: a stale view of the row is refused.
    await expect(s.write((tx) => writeOpen(tx, { ...row, phase: "again" }, { ...row, updatedAt: now }, "me", now + 2))).rejects.toMatchObject({ code: "request_in_progress" });
    await s.write((tx) => writePhase(tx, "OP-RT1", "done", now + 3, { status: "done" }));
    const body = new TextEncoder().encode("<OrderViewRS/>");
    const answer = { operationId: "OP-RT1", kind: "order_create" as const, request: row.request!, fingerprint: "fp", status: 200, body, instanceId: "me", now: now + 4 };
    expect(await s.write((tx) => writeAnswer(tx, answer))).toBe(true);
    // Not over another answer: the upsert's where refuses, returning answers no row.
    expect(await s.write((tx) => writeAnswer(tx, { ...answer, status: 500 }))).toBe(false);
    expect((await ops.load("OP-RT1"))?.answer).toEqual({ status: 200, body });
    // The partial unique index is a UNIQUE refusal, the primary key a PRIMARYKEY one, as on SQLite.
    const twin = await s.write((tx) => writeOpen(tx, { ...row, operationId: "OP-RT2" }, undefined, "me", now)).catch((e: unknown) => e);
    expect(storeErrorCode(twin)).toBe("SQLITE_CONSTRAINT_UNIQUE");
    const again = await s.write((tx) => writeOpen(tx, row, undefined, "me", now)).catch((e: unknown) => e);
    expect(storeErrorCode(again)).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
  });

  test("values come back as SQLite hands them: numbers, 0/1 booleans, objects from raw SQL, arrays mapped by builders", async () => {
    const s = await open();
    const big = 2 ** 52 + 1;
    await s.write((tx) => tx.insert(counters).values([{ name: "v1", value: big, flag: true }, { name: "v2", value: 2 }]));
    expect(await s.db.select().from(counters).where(eq(counters.name, "v1")).get()).toEqual({ name: "v1", value: big, flag: true, ratio: null });
    const raw = await s.db.all<{ n: number; total: number; any_flag: number; is_null: number }>(
      sql`SELECT count(*) AS n, sum(value) AS total, max(flag) AS any_flag, (min(ratio) IS NULL) AS is_null FROM counters WHERE name IN ('v1', 'v2')`,
    );
    // count(*) is bigint, sum(bigint) numeric, a comparison boolean on PostgreSQL: SQLite's integers here.
    expect(raw).toEqual([{ n: 2, total: big + 2, any_flag: 1, is_null: 1 }]);
    expect(await s.db.get(sql`SELECT name FROM counters WHERE name = ${"v2"}`)).toEqual({ name: "v2" });
    // An alias keeps its case, as SQLite keeps it (PostgreSQL alone would name it countername).
    expect(await s.db.get(sql`SELECT name AS counterName FROM counters WHERE name = ${"v2"}`)).toEqual({ counterName: "v2" });
    expect(await s.db.values(sql`SELECT name, value FROM counters WHERE name = ${"v2"}`)).toEqual([["v2", 2]]);
    // Past 2^53 a Number would silently change: refused.
    await s.write((_tx, raw) => raw.exec(`INSERT INTO counters (name, value) VALUES ('huge', 9007199254740993)`));
    expect(await reason(s.db.select().from(counters).where(eq(counters.name, "huge")))).toMatch(/past Number.MAX_SAFE_INTEGER/);
    // SQLite-only SQL fails loudly, before reaching the server.
    expect(await reason(s.db.all(sql`SELECT k.value FROM counters, json_each(counters.name) k`))).toMatch(/json_each/);
    // Reads go to read-only connections, as SQLite's reader is query_only.
    const sneaky = await failure(s.db.insert(counters).values({ name: "sneaky", value: 1 }));
    expect(storeErrorCode(sneaky)).toBe("SQLITE_READONLY");
  });

  test("a refused statement fails with the server's words, as bun:sqlite's do, and never with its values (messages reach the log)", async () => {
    const s = await open();
    await s.write((tx) => tx.insert(counters).values({ name: "taken", value: 1 }));
    const secret = "LOVELACE-PASSPORT-X1234567";
    const refused = (await failure(s.write((tx) => tx.insert(counters).values({ name: "taken", value: 2 }).run()))) as Error;
    expect(refused.message).toMatch(/^duplicate key value violates unique constraint "counters_pkey"$/);
    expect(storeErrorCode(refused)).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
    // The row refused holds the secret (PostgreSQL's detail quotes it; drizzle's message listed the values).
    const named = (await failure(s.write((tx) => tx.run(sql`INSERT INTO counters (name, value) VALUES (${secret}, ${null})`)))) as Error & { query?: string };
    expect(named.message).toBe('null value in column "value" of relation "counters" violates not-null constraint');
    expect(storeErrorCode(named)).toBe("SQLITE_CONSTRAINT_NOTNULL");
    // The statement's text (placeholders, no values) stays with it for whoever debugs.
    expect(named.query).toContain("INSERT INTO counters");
    expect(named.query).not.toContain(secret);
  });

  test("writes are serial across two machines: 2 x 200 concurrent read-then-write increments lose none", async () => {
    const [a, b] = [await open(), await open()];
    await a.write((tx) => tx.insert(counters).values({ name: "hits", value: 0 }));
    const increment = (s: Store) =>
      s.write(async (tx) => {
        const [row] = await tx.select({ value: counters.value }).from(counters).where(eq(counters.name, "hits"));
        // A pause between the read and the write: any other writer would slip in here.
        await Bun.sleep(0);
        await tx.update(counters).set({ value: row!.value + 1 }).where(eq(counters.name, "hits"));
      });
    await Promise.all(Array.from({ length: 200 }, () => [increment(a), increment(b)]).flat());
    const [row] = await a.db.select().from(counters).where(eq(counters.name, "hits"));
    expect(row!.value).toBe(400);
  }, 60_000);

  test("the journal's concurrency rule: two machines append the same seq, one wins, the other sees the primary key's code", async () => {
    const [a, b] = [await open(), await open()];
    for (let round = 0; round < 5; round++) {
      const key = `RACE${round}`;
      const outcomes = await Promise.allSettled([a, b].map((s, i) => s.write((tx) => appendEvents(tx, { kind: "order", key, afterSeq: 0, now: 1 }, [{ by: i }]))));
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const lost = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      expect(isConstraintViolation(lost.reason)).toBe(true);
      expect(storeErrorCode(lost.reason)).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
      expect(await readEvents(a.db, "order", key)).toHaveLength(1);
    }
  }, 30_000);

  test("group commit: writes ready together share one COMMIT, a failing one is rolled back alone, after-commit work keeps its meaning", async () => {
    const s = await open();
    const before = { ...s.commits };
    const order: string[] = [];
    const writes = Array.from({ length: 32 }, (_, i) =>
      s.write(async (tx) => {
        await tx.insert(counters).values({ name: `gc${i}`, value: i });
        atEndOfWrite(tx, "derived", async (t) => void (await t.update(counters).set({ flag: true }).where(eq(counters.name, `gc${i}`))));
        afterCommit(tx, () => order.push(`committed ${i}`));
        if (i === 7) throw new Error("refused seven");
        return i;
      }),
    );
    const results = await Promise.allSettled(writes);
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.message)).toEqual(["refused seven"]);
    const rows = await s.db.select().from(counters).where(sql`${counters.name} LIKE 'gc%'`);
    expect(rows).toHaveLength(31);
    expect(rows.every((r) => r.flag)).toBe(true);
    expect(order).toHaveLength(31);
    expect(s.commits.transactions - before.transactions).toBe(31);
    // Fewer COMMITs than writes: they were batched (each write its own COMMIT would be 31).
    expect(s.commits.commits - before.commits).toBeLessThan(8);
  }, 30_000);

  test("a write that breaks its batch's savepoint fails with the batch, and nothing of the batch is acknowledged or committed", async () => {
    const s = await open();
    // The write releases the queue's savepoint itself, so the queue's own RELEASE fails. Whatever
    // way the driver sends it (awaited, or pipelined: bench/README.md "Issue 23: both engines"
    // measured that), neither write may be acknowledged: PostgreSQL answers the COMMIT of an
    // aborted transaction with ROLLBACK, not with an error.
    const results = await Promise.allSettled([
      s.write((tx) => tx.insert(counters).values({ name: "pipe-ok", value: 1 })),
      s.write(async (tx, raw) => {
        await tx.insert(counters).values({ name: "pipe-released", value: 2 });
        await raw.exec("RELEASE SAVEPOINT ndc_write");
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await s.db.select().from(counters).where(sql`${counters.name} LIKE 'pipe-%'`)).toEqual([]);
    // The store goes on: the next write commits.
    await s.write((tx) => tx.insert(counters).values({ name: "pipe-after", value: 3 }));
    expect(await s.db.select({ value: counters.value }).from(counters).where(eq(counters.name, "pipe-after"))).toEqual([{ value: 3 }]);
  }, 30_000);

  test("raw.exec runs several statements in the write; store.exec runs outside any transaction (VACUUM)", async () => {
    const s = await open();
    await s.exec("VACUUM counters");
    await s.exec(`INSERT INTO counters (name, value) VALUES ('e1', 1); INSERT INTO counters (name, value) VALUES ('e2', 2)`);
    await s.write((_tx, raw) => raw.exec(`UPDATE counters SET value = value + 10 WHERE name = 'e1'; UPDATE counters SET value = value + 10 WHERE name = 'e2'`));
    expect(await s.db.all(sql`SELECT name, value FROM counters WHERE name IN ('e1', 'e2') ORDER BY name`)).toEqual([
      { name: "e1", value: 11 },
      { name: "e2", value: 12 },
    ]);
  });

  test("the write lock held elsewhere for 5 s answers actor_busy, as SQLite's file lock does; reads go on meanwhile", async () => {
    const s = await open();
    const holder = new Bun.SQL({ url: cluster!.url, max: 1 });
    const held = await holder.reserve();
    await held.unsafe(`SELECT pg_advisory_lock(${WRITE_LOCK_KEY})`);
    try {
      const started = performance.now();
      const reading = s.db.select().from(counters).limit(1);
      expect(await reading).toHaveLength(1);
      const e = await s.write((tx) => tx.insert(counters).values({ name: "blocked", value: 1 })).catch((x: unknown) => x);
      expect(isGatewayError(e) && e.code === "actor_busy" && e.retryAfterSeconds === 1).toBe(true);
      expect(performance.now() - started).toBeGreaterThan(4_500);
    } finally {
      await held.unsafe(`SELECT pg_advisory_unlock(${WRITE_LOCK_KEY})`);
      held.release();
      await holder.close();
    }
    await s.write((tx) => tx.insert(counters).values({ name: "unblocked", value: 1 }));
  }, 30_000);

  test("the compiled binary loads the driver and answers from PostgreSQL", async () => {
    // Inside the repository, so that the entry resolves drizzle-orm from its node_modules.
    const dir = mkdtempSync(join(import.meta.dir, "../../.pg-compiled-"));
    try {
      const entry = join(dir, "entry.ts");
      const storeIndex = join(import.meta.dir, "../../packages/store/src/index.ts");
      writeFileSync(entry, `import { sql } from "drizzle-orm";\nimport { openStore } from ${JSON.stringify(storeIndex)};\nconst s = await openStore(process.argv[2]!);\nconst [r] = await s.db.all(sql\`SELECT 6 * 7 AS answer, \${"x"} AS p\`);\nconsole.log(JSON.stringify({ ...(r as object), driver: s.driver }));\nawait s.close();\n`);
      const bin = join(dir, "probe");
      const build = Bun.spawnSync([process.execPath, "build", "--compile", entry, "--outfile", bin], { stderr: "pipe", stdout: "pipe" });
      expect(build.exitCode, build.stderr.toString()).toBe(0);
      const out = Bun.spawnSync([bin, cluster!.url], { stdout: "pipe", stderr: "pipe" });
      expect(out.stderr.toString()).toBe("");
      expect(JSON.parse(out.stdout.toString())).toEqual({ answer: 42, p: "x", driver: "postgres" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
