// The counter patches bun:sqlite before the gateway opens its store: imported first.
import { countStatements, describeCount } from "../support/count-statements";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ON_POSTGRES } from "../support/database";
import type { TestGateway } from "../support/gateway";
import { gateway, orderCreateRQ, shopOffer, type Shopped } from "./helpers";

/**
 * SQL statements per paid OrderCreateRQ over HTTP (issue 22 item 5): the CPU of a booking is
 * mostly statements and what is built around them (bench/README.md, order-create-cpu), so the
 * number one booking runs is pinned here: a change that adds a statement to the booking path
 * fails this test and has to say why (and update the number, with the bench's figure).
 * The booking is the bench's: two passengers, two seats, one card leg (the simulated PSP's own
 * statements on its tables counted apart), on a flight whose seat actor is already resident (a
 * booking before it woke it), the steady state of a selling gateway.
 */
const PINNED = {
  // Every statement the gateway runs for the booking (reads, writes, transaction control).
  // 72 after the actors' freshness checks (6 PRAGMA data_version, one per write and per ask);
  // 70 since the answer is the view the booking's own close write stored (no re-read of the
  // order's documents and legs right after that write: order-view-cache.ts createdViewResult);
  // 69 since the saga does not read its operation row again when the idempotency read found none
  // (idempotency.ts unseenOperation); 68 since a new order's first legs are numbered from 1
  // without reading its highest leg seq (create/saga.ts openPhase); 71 since a write decides again
  // under the write lock when another process wrote its keys (one PRAGMA data_version per batch that
  // writes an actor, read after BEGIN IMMEDIATE: packages/actors/src/fresh.ts caughtUpUnderLock).
  gateway: 71,
  // Of which: durable COMMITs, booking alone so no group commit shares them: the gateway's 4 writes
  // (test/orders-http/commit-count.test.ts) and the simulated PSP's 2 (their BEGIN, SAVEPOINT,
  // RELEASE and COMMIT are counted in `gateway`: the store runs them, not the PSP).
  commits: 6,
  // The simulated PSP's (psp_sim_* tables): a foreign system's, not the gateway's to cut.
  psp: 7,
};

// Skipped on PostgreSQL: the counter patches bun:sqlite's Database, and the PostgreSQL store sends
// its SQL through Bun.SQL (other statements: the write lock, no PRAGMA data_version), not pinned here.
let t: TestGateway;
beforeAll(async () => {
  if (ON_POSTGRES) return;
  ({ t } = await gateway());
});
afterAll(() => t?.close());

const rq = (shopped: Shopped, n: number) =>
  orderCreateRQ({
    shopped,
    pax: [
      { id: "PAX1", surname: "STATEMENTS", given: "Ada", doc: { number: `ST${String(n).padStart(7, "0")}` } },
      { id: "PAX2", surname: "STATEMENTS", given: "Alan" },
    ],
    legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }],
    correlationId: `STATEMENTS-${n}`,
    trxId: "TRX-1",
  });

describe.skipIf(ON_POSTGRES)("SQL statements per paid OrderCreateRQ", () => {
  test("two passengers, two seats, a card leg: the pinned number of statements and COMMITs", async () => {
    const first = await t.ndc("OrderCreateRQ", rq(await shopOffer(t, { pax: 2, seat: true }), 1));
    expect(first.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    const shopped = await shopOffer(t, { pax: 2, seat: true });
    const { result, count } = await countStatements(() => t.ndc("OrderCreateRQ", rq(shopped, 2)));
    expect(result.status).toBe(200);
    expect(result.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    const psp = [...count.bySql].filter(([sql]) => /"psp_sim_/.test(sql)).reduce((n, [, k]) => n + k, 0);
    const seen = { gateway: count.total - psp, commits: count.commits, psp };
    console.log(`statements per paid OrderCreateRQ: ${JSON.stringify(seen)} (${count.reads} reads, ${count.writes} writes, ${count.transaction} transaction control, PSP's included)\n${describeCount(count)}`);
    expect(seen, describeCount(count)).toEqual(PINNED);
  });
});
