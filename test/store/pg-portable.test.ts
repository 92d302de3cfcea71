/**
 * The domain's SQL that was SQLite-only, in its PostgreSQL form (issue 23, decision 0041 "The
 * non-portable spots"): each rewritten statement run through the domain function that owns it, on
 * a throwaway PostgreSQL migrated by the real runner, through the real store (openStore on its
 * postgres:// URL). Rows are put in place with Bun.SQL directly. Their SQLite forms are the ones
 * the existing suites run (test/notifications/operations-feed, dispatcher, test/staff/dashboard,
 * test/pii/storage).
 */
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { SQL } from "bun";
import { sql } from "drizzle-orm";
import { databaseNow, integerSum, migrate, openStore, type Store } from "@ndc/store";
import { announceInstance, instancesByLife } from "../../packages/orders/src/liveness/instances";
import { feedCandidateFlights, openOrdersOnFlight } from "../../packages/orders/src/operations/sweeps";
import { list } from "../../packages/orders/src/read/list";
import { airlineSearch } from "../../packages/orders/src/read/airline";
import { surnameDigest } from "../../packages/orders/src/read/surname-digest";
import { claimDeliveries } from "../../packages/notifications/src/claim";
import { eraseIdentityDocuments } from "../../packages/pii/src/storage/erase";
import { CallerCache } from "../../packages/auth/src/access/caller-cache";
import { jobRuns, notificationBacklog, ordersPerHour } from "../../apps/gateway/src/metrics/store-figures";
import { storeCheckpoint } from "../../apps/scheduler/src/jobs/store-checkpoint";
import { pgBin, startCluster, stopCluster, type Cluster } from "./pg-support";

const T0 = Date.UTC(2026, 11, 1, 10, 0, 0);
const HOUR = 3_600_000;

describe.skipIf(!pgBin)("the SQLite-only spots, on PostgreSQL", () => {
  let cluster: Cluster | undefined;
  let url: string;
  let pg: SQL;
  let store: Store;

  beforeAll(async () => {
    cluster = startCluster();
    url = cluster.url;
    store = await openStore(url);
    await migrate(store);
    pg = new SQL({ url, bigint: true, max: 4 });
  }, 60_000);
  // 60 s: stopping the cluster (its shutdown checkpoint) took 9.5 s on this shared 2-core machine under load.
  afterAll(async () => {
    await store?.close();
    await pg?.close();
    stopCluster(cluster);
  }, 60_000);

  const order = (id: string, state: string, flightKeys: string[], extra: Record<string, unknown> = {}) => ({
    order_id: id, owner_client_id: "c1", owner_agency_id: "AG1", state, version: 1, created_at: T0, updated_at: T0,
    currency: "EUR", total_minor: 10_000, pax_count: 1, travel_from: "2026-12-01", travel_to: "2026-12-02",
    flight_keys: JSON.stringify(flightKeys), partner_awaiting: 0, ...extra,
  });

  test("the operations feed's flights come from the orders' JSON arrays (jsonb_array_elements_text), quoted aliases kept", async () => {
    await pg`DELETE FROM orders`;
    await pg`DELETE FROM operations_feed`;
    await pg`INSERT INTO orders ${pg([
      order("O1", "booked", ["XB-100-2026-12-01", "XB-101-2026-12-02"]),
      order("O2", "held_unpaid", ["XB-100-2026-12-01"]),
      order("O3", "cancelled", ["XB-200-2026-12-01"]),
      order("O4", "booked", ["XB-300-2026-12-01"]),
    ])}`;
    await pg`INSERT INTO operations_feed ${pg({ flight_key: "XB-300-2026-12-01", kind: "retime", minutes: 30, announced_at: T0, applied_at: T0, orders: 1 })}`;
    const keys = (await feedCandidateFlights(store, T0)).map((r) => r.key).sort();
    expect(keys).toEqual(["XB-100-2026-12-01", "XB-101-2026-12-02"]);
    const on = (await openOrdersOnFlight(store, "XB-100-2026-12-01")).map((r) => r.orderId).sort();
    // An unquoted `AS orderId` would come back as `orderid` here: undefined ids.
    expect(on).toEqual(["O1", "O2"]);
  });

  test("the dashboard's figures: integer hours, integer sums (not numeric text), backlog and job runs", async () => {
    await pg`DELETE FROM orders`;
    await pg`INSERT INTO orders ${pg([
      order("A", "booked", [], { created_at: T0 + 60_000, total_minor: 12_345 }),
      order("B", "closed", [], { created_at: T0 + 120_000, total_minor: 5 }),
      order("C", "held_unpaid", [], { created_at: T0 + HOUR + 1 }),
    ])}`;
    const hours = await ordersPerHour(store, T0 + HOUR + 5, 2);
    expect(hours).toEqual([
      { hour: new Date(T0).toISOString(), orders: 2, revenue: [{ currency: "EUR", minor: 12_350, amount: "123.50" }] },
      { hour: new Date(T0 + HOUR).toISOString(), orders: 1, revenue: [] },
    ]);
    // Why integerSum: PostgreSQL's SUM of bigint is numeric, which the client answers as text.
    const [bare] = await pg`SELECT SUM(total_minor) AS s FROM orders`;
    expect(typeof bare.s).toBe("string");
    const q = (store.db as unknown as { dialect: { sqlToQuery(s: unknown): { sql: string } } }).dialect.sqlToQuery(sql`SELECT ${integerSum(sql`total_minor`)} AS s FROM orders`.getSQL());
    const [cast] = await pg.unsafe(q.sql);
    expect(cast.s).toBe(12_350n + 10_000n);

    await pg`DELETE FROM notification_deliveries`;
    const delivery = (id: string, status: string, createdAt: number) => ({ delivery_id: id, subscription_id: "S1", event: "e", message_name: "m", body: "<x/>", status, attempts: 0, created_at: createdAt, updated_at: createdAt });
    await pg`INSERT INTO notification_deliveries ${pg([delivery("d1", "pending", T0), delivery("d2", "pending", T0 + 1000), delivery("d3", "failed", T0)])}`;
    expect(await notificationBacklog(store, T0 + 61_000)).toEqual({ pending: 2, failed: 1, oldestPendingAt: new Date(T0).toISOString(), oldestPendingAgeSeconds: 61 });

    await pg`DELETE FROM scheduler_jobs`;
    await pg`INSERT INTO scheduler_jobs ${pg({ job: "payments.expire", holder: "h:1:x", lease_until: T0 + 5000, last_started_at: T0, updated_at: T0, next_run_at: T0 + 60_000 })}`;
    expect(await jobRuns(store, T0)).toEqual([{ job: "payments.expire", running: true, lastStartedAt: new Date(T0).toISOString(), lastFinishedAt: null, lastOutcome: null, nextRunAt: new Date(T0 + 60_000).toISOString() }]);
  });

  test("an outbox claim skips the rows another dispatcher is taking instead of waiting for them (FOR UPDATE SKIP LOCKED)", async () => {
    await pg`DELETE FROM notification_deliveries`;
    const due = (id: string) => ({ delivery_id: id, subscription_id: "S1", event: "e", message_name: "m", body: "<x/>", status: "pending", attempts: 0, next_attempt_at: T0, created_at: T0, updated_at: T0 });
    await pg`INSERT INTO notification_deliveries ${pg([due("a"), due("b"), due("c")])}`;
    // Another dispatcher is in the middle of taking "a": its row lock is held until it commits.
    const other = await pg.reserve();
    await other`BEGIN`;
    await other`SELECT delivery_id FROM notification_deliveries WHERE delivery_id = 'a' FOR UPDATE`;
    try {
      const started = performance.now();
      const taken = await Promise.race([claimDeliveries(store, ["a", "b", "c"], T0, T0 + 30_000), Bun.sleep(3000).then(() => "waited on the lock" as const)]);
      expect(taken === "waited on the lock" ? taken : taken.map((r) => r.deliveryId).sort()).toEqual(["b", "c"]);
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      await other`ROLLBACK`;
      other.release();
    }
    // Taken rows are not taken again before their claim lapses; "a" is, now that it is free.
    expect((await claimDeliveries(store, ["a", "b", "c"], T0 + 1, T0 + 30_000)).map((r) => r.deliveryId)).toEqual(["a"]);
    expect((await claimDeliveries(store, ["a", "b", "c"], T0 + 30_000, T0 + 60_000)).map((r) => r.deliveryId).sort()).toEqual(["a", "b", "c"]);
  });

  test("erasure runs no SQLite pragma and VACUUMs the erased tables after its commit", async () => {
    await pg.unsafe("DELETE FROM identity_documents; DELETE FROM signed_originals; DELETE FROM identity_document_erasures").simple();
    await pg`INSERT INTO identity_documents ${pg({ document_id: "D1", order_id: "O1", pax_id: "P1", type_code: "PT", holder_surname: "DOE", number_ciphertext: "c", number_nonce: "n", key_version: 1, created_at: T0 })}`;
    await pg`INSERT INTO signed_originals ${pg({ evidence_seq: 1, order_id: "O1", ciphertext: Buffer.from("sealed"), nonce: Buffer.from("nonce"), key_version: 1 })}`;
    const [{ vacuums: before }] = await pg`SELECT vacuum_count AS vacuums FROM pg_stat_user_tables WHERE relname = 'identity_documents'`;
    const erased = await eraseIdentityDocuments(store, ["O1"], T0, { path: "retention", actor: "scheduler" });
    expect(erased).toBe(1);
    const [doc] = await pg`SELECT holder_surname, number_ciphertext, erased_at FROM identity_documents`;
    expect(doc).toEqual({ holder_surname: null, number_ciphertext: null, erased_at: BigInt(T0) });
    const [orig] = await pg`SELECT ciphertext, erased_at FROM signed_originals`;
    expect(orig).toEqual({ ciphertext: null, erased_at: BigInt(T0) });
    const audit = await pg`SELECT seq, order_id, documents FROM identity_document_erasures`;
    expect(audit).toEqual([{ seq: 1n, order_id: "O1", documents: 1n }]);
    // The statistics are flushed a moment after the VACUUM: poll briefly.
    let vacuums = before;
    for (let i = 0; i < 40 && vacuums === before; i++) {
      await Bun.sleep(100);
      [{ vacuums }] = await pg`SELECT vacuum_count AS vacuums FROM pg_stat_user_tables WHERE relname = 'identity_documents'`;
    }
    expect(Number(vacuums)).toBeGreaterThan(Number(before));
  });

  test("the WAL checkpoint job is a no-op on PostgreSQL that says so", async () => {
    const ran = await storeCheckpoint.run({ store, config: { databaseUrl: url } } as never);
    expect(ran).toEqual({ skipped: "PostgreSQL checkpoints by itself" });
  });

  test("the caller cache, with no change counter on PostgreSQL, reads the registry version on every call", async () => {
    let versionReads = 0;
    let version = 1;
    const cache = new CallerCache(
      {
        caller: async (id) => ({ clientId: id }) as never,
        aggregatorAgencies: async () => [],
        apiKey: async () => undefined,
        version: async () => (versionReads++, version),
      },
      store,
    );
    await cache.caller("c1");
    await cache.caller("c1");
    expect(versionReads).toBe(2);
    const generation = await cache.generationNow();
    version = 2; // another machine suspended a client: its trigger moved the row
    expect(await cache.generationNow()).toBe(generation + 1);
  });

  test("heartbeats are written and judged on the database's clock: a machine whose clock is a minute behind is not judged dead", async () => {
    const db = await databaseNow(store);
    expect(Math.abs(db - Date.now())).toBeLessThan(5_000);
    // This "machine" runs a minute behind the others: its own clock would write a heartbeat that
    // every other machine reads as 60 s old, past the 30 s lapse.
    setSystemTime(new Date(Date.now() - 60_000));
    let beat;
    try {
      beat = await announceInstance(store, "behind");
    } finally {
      setSystemTime();
    }
    try {
      const life = await instancesByLife(store);
      expect({ alive: life.alive.has("behind"), dead: life.dead.has("behind") }).toEqual({ alive: true, dead: false });
    } finally {
      await beat.stop();
    }
  });

  test("the order list's page: absent filters bound NULL and typed by CAST, states matched without instr", async () => {
    await pg`DELETE FROM orders`;
    await pg`INSERT INTO orders ${pg([
      order("L1", "booked", [], { created_at: T0 + 1 }),
      order("L2", "held_unpaid", [], { created_at: T0 + 2 }),
      order("L3", "held_payment_declined", [], { created_at: T0 + 3, pax_count: 2 }),
      order("L4", "cancelled", [], { created_at: T0 + 4, owner_agency_id: "AG2" }),
    ])}`;
    const ctx = { store, fieldKey: { key: new Uint8Array(32).fill(7), version: 1 } } as never;
    const seller = { clientId: "c1", agencyId: "AG1" } as never;
    const ids = async (filters: object, page: object = {}) => (await list(ctx, seller, filters, page)).orders.map((o) => o.orderId);
    expect(await ids({})).toEqual(["L3", "L2", "L1"]);
    expect(await ids({ states: ["held_unpaid", "booked"] })).toEqual(["L2", "L1"]);
    expect(await ids({ states: ["held"] })).toEqual([]);
    expect(await ids({ createdFrom: T0 + 2, paxCount: 1 })).toEqual(["L2"]);
    const first = await list(ctx, seller, {}, { limit: 2 });
    expect(first.orders.map((o) => o.orderId)).toEqual(["L3", "L2"]);
    expect(await ids({}, { after: first.next })).toEqual(["L1"]);
  });

  test("the airline search's surname subquery, date range and journal LIKE run on PostgreSQL", async () => {
    await pg`DELETE FROM orders`;
    await pg`DELETE FROM order_pax_index`;
    await pg`DELETE FROM actor_journal`;
    await pg`INSERT INTO orders ${pg([order("S1", "booked", [], { created_at: T0 + 1 }), order("S2", "booked", [], { created_at: T0 + 2 })])}`;
    const fieldKey = { key: new Uint8Array(32).fill(7), version: 1 };
    await pg`INSERT INTO order_pax_index ${pg({ order_id: "S2", surname_digest: surnameDigest(fieldKey as never, "Doe") })}`;
    const ctx = { store, fieldKey } as never;
    expect((await airlineSearch(ctx, { surname: "DOE" })).map((r) => r.orderId)).toEqual(["S2"]);
    expect((await airlineSearch(ctx, { state: "booked", date: "2026-12-01" })).map((r) => r.orderId)).toEqual(["S2", "S1"]);
    // The flight filter's journal scan runs here; a flight no journal names finds no candidate,
    // so nothing is read through the order actor (which this test has not).
    await pg`INSERT INTO actor_journal ${pg({ kind: "orders.order", key: "S1", seq: 1, payload: JSON.stringify({ flightKeys: ["XB-100-2026-12-01"] }), committed_at: T0 })}`;
    expect(await airlineSearch(ctx, { flight: "XB999", date: "2026-12-01" })).toEqual([]);
  });
});
