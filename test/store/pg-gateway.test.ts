/**
 * The gateway itself on the PostgreSQL store (issue 23 item 1, decision 0041): booted on a
 * `postgres://` URL, migrated from schemas/migrations-postgres by the same runner, it books paid
 * orders over HTTP, replays an OrderCreateRQ byte for byte, retrieves the order, and books ten
 * orders at once, through the domain's unchanged sqlite-core queries. Skipped with one line where
 * PostgreSQL is not installed, or before the PostgreSQL migrations exist.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer, T0 } from "../orders-http/helpers";
import { pgBin, startCluster, stopCluster, type Cluster } from "./pg-support";

const migrations = existsSync(join(import.meta.dir, "../../schemas/migrations-postgres"));
if (pgBin && !migrations) console.log("pg-gateway: skipped, no schemas/migrations-postgres yet");

let cluster: Cluster | undefined;
let t: TestGateway | undefined;
afterAll(async () => {
  await t?.close();
  stopCluster(cluster);
}, 60_000);

const card = (amountMinor: number) => [{ kind: "card" as const, token: "tok_approve_visa", amountMinor }];

describe.skipIf(!pgBin || !migrations)("the gateway on PostgreSQL", () => {
  test("paid bookings, an idempotent replay, a retrieve and ten bookings at once", async () => {
    cluster = startCluster();
    t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", GATEWAY_DATABASE_URL: cluster.url }, new ManualClock(T0));
    expect(t.gw.store.dialect).toBe("postgres");

    const shopped = await shopOffer(t, { pax: 1, seat: true });
    const rq = orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "POSTGRES", given: "Ada", doc: { number: "PG1234567" } }], legs: card(shopped.totalMinor), correlationId: "PG-1", trxId: "TRX-1" });
    const first = await t.ndc("OrderCreateRQ", rq);
    expect(first.status).toBe(200);
    expect(first.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    // The stored answer, replayed from PostgreSQL byte for byte.
    expect((await t.ndc("OrderCreateRQ", rq)).body).toBe(first.body);
    const orderId = orderIdOf(first.body);
    const got = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    expect(got.status).toBe(200);
    expect(got.body).toContain(orderId);

    const before = { ...t.gw.store.commits };
    const many = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const s = await shopOffer(t!, { pax: 1 });
        const q = orderCreateRQ({ shopped: s, pax: [{ id: "PAX1", surname: "MANY", given: "Bo", doc: { number: `PG${1000 + i}` } }], legs: card(s.totalMinor), correlationId: `PG-M${i}`, trxId: "TRX" });
        return (await t!.ndc("OrderCreateRQ", q)).status;
      }),
    );
    expect(many).toEqual(Array(10).fill(200));
    // Writes of concurrent bookings shared COMMITs (group commit under the one write lock).
    expect(t.gw.store.commits.commits - before.commits).toBeLessThan(t.gw.store.commits.transactions - before.transactions);
  }, 120_000);
});
