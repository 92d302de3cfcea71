/**
 * PostgreSQL restarted under booking load (issue 23 item 4, decision 0041's failure modes): two
 * hosts and the scheduler app on a durable cluster of this test's own (fsync and synchronous
 * commit on, as an airline runs it; the suites' shared cluster is neither, and a restart would
 * disturb the other files). While the server restarts the gateways answer 503 store_unavailable
 * with Retry-After: 1; they reconnect by themselves (no process restarted, none died); no
 * acknowledged order is lost: every order answered 200 is retrievable afterwards, booked and paid.
 * Every request refused meanwhile, sent again on the other host, gets its order within 15 s: one
 * whose saga the outage cut off was given up and released by the host that ran it (decision 0040,
 * "abandoned by its own process"). Before that it stayed with its live owner until the
 * reconciler's grace for live owners (LIVE_OWNER_GRACE_MS, 10 minutes) had passed (seen: 3 of
 * 351 refused requests still in progress 22 s after the restart; 4 of the first 24, retried for 3 s).
 */
import { afterAll, expect, test } from "bun:test";
import { shopWithSeats, orderLoad } from "../crash/load";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer, TRAVEL_DATE } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { MACHINES_NEED_POSTGRES, ON_POSTGRES } from "../support/database";
import { errorCode } from "../support/gateway";
import { restartClusterInBackground, startCluster, stopCluster, type Cluster } from "../store/pg-support";
import { anotherMachine, multiDataDir, type MultiDataDir, type Worker } from "../multi/support";

if (!ON_POSTGRES) console.log(`test/machines/postgres-restart.test.ts skipped: ${MACHINES_NEED_POSTGRES}`);

const IN_FLIGHT = 8;
const ACKS_BEFORE_RESTART = 20;
const ACKS_AFTER_RESTART = 20;
/** How soon a refused request, sent again once a second, must get its order. */
const RETRIED_WITHIN_MS = 15_000;
let cluster: Cluster | undefined;
const hosts: MultiDataDir[] = [];
afterAll(async () => {
  for (const h of hosts.reverse()) await h.close();
  stopCluster(cluster);
});

test.skipIf(!ON_POSTGRES)(
  "pg_ctl restart -m fast under booking load over two hosts: 503 store_unavailable with Retry-After meanwhile, then both reconnect by themselves; every acknowledged order retrievable and paid",
  async () => {
    cluster = startCluster();
    const hostA = multiDataDir({ databaseUrl: cluster.url });
    hosts.push(hostA);
    const a = await hostA.startWorker();
    expect((await fetch(`${a.url}/24.4`)).status).toBe(200);
    const hostB = anotherMachine(hostA, "host-b");
    const schedulerHost = anotherMachine(hostA, "host-c");
    hosts.push(hostB, schedulerHost);
    const b = await hostB.startWorker();
    const app = await schedulerHost.startSchedulerApp({ ORDERS_BACKGROUND_MS: "1000" });
    const shop = await shopWithSeats(b, 3);

    const load = orderLoad((i) => (i % 2 === 0 ? a : b), shop, "PGRESTART", IN_FLIGHT, { goOnAfterCut: true });
    const { acknowledged, cutOff, other } = load.out;
    const until = async (what: string, cond: () => boolean, ms: number) => {
      const end = performance.now() + ms;
      while (!cond()) {
        if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms (${acknowledged.length} acknowledged, ${other.length} other answers: ${JSON.stringify(other.slice(-3))})`);
        await Bun.sleep(5);
      }
    };
    await until(`${ACKS_BEFORE_RESTART} bookings before the restart`, () => acknowledged.length >= ACKS_BEFORE_RESTART, 60_000);
    expect(other).toEqual([]);

    const t0 = performance.now();
    await restartClusterInBackground(cluster);
    const restartMs = performance.now() - t0;
    const acksAtRestart = acknowledged.length;
    // Reconnected by themselves: the same processes book again.
    await until(`${ACKS_AFTER_RESTART} bookings after the restart`, () => acknowledged.length >= acksAtRestart + ACKS_AFTER_RESTART, 30_000);
    await load.stop();

    const refusals = new Map<string, number>();
    for (const o of other) {
      const key = `${o.status} ${errorCode(o.body)} retry-after ${o.retryAfter}`;
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
    }
    console.log(`restart took ${Math.round(restartMs)} ms; ${acknowledged.length} acknowledged (${acksAtRestart} before it ended); meanwhile ${JSON.stringify(Object.fromEntries(refusals))}; ${cutOff.length} cut off`);
    expect(other.length).toBeGreaterThan(0);
    expect([...refusals.keys()]).toEqual(["503 store_unavailable retry-after 1"]);
    // No connection was dropped: the gateways answered throughout, and none of them died.
    expect(cutOff).toEqual([]);
    for (const p of [a.run.proc, b.run.proc, app.proc]) expect(p.exitCode).toBeNull();

    // Both hosts book again, each on its own (the load's senders alternate, so this names each).
    for (const w of [a, b]) {
      const shopped = await shopOffer(w, { date: TRAVEL_DATE });
      const r = await w.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `PGRESTART-AFTER-${w.url}`, trxId: "T1" }));
      expect(r.status).toBe(200);
      acknowledged.push(orderIdOf(r.body));
    }
    // Every refused request sent again as the seller retries after Retry-After: 1, on the OTHER
    // host than the one that refused it (a saga the outage cut off names that host as its owner):
    // each gets its order within RETRIED_WITHIN_MS. Its host gave the saga up and released it
    // (decision 0040, "abandoned by its own process"); on the old code 3 of 351 stayed
    // request_in_progress for the reconciler's 10-minute grace for live owners.
    const refused = [...new Map(other.map((o) => [o.sent, o])).values()];
    const retryAnswers = new Map<string, number>();
    const notBooked: string[] = [];
    let slowestMs = 0;
    const retryOne = async (o: (typeof refused)[number]) => {
      const to = o.i % 2 === 0 ? b : a;
      const t = performance.now();
      for (;;) {
        const r = await to.ndcUnchecked("OrderCreateRQ", o.sent);
        const key = r.status === 200 ? "200" : `${r.status} ${errorCode(r.body)} retry-after ${r.headers.get("retry-after")}`;
        retryAnswers.set(key, (retryAnswers.get(key) ?? 0) + 1);
        if (r.status === 200 && r.body.includes("<cns:StatusCode>BOOKED</cns:StatusCode>")) {
          acknowledged.push(orderIdOf(r.body));
          slowestMs = Math.max(slowestMs, performance.now() - t);
          return;
        }
        if (performance.now() - t > RETRIED_WITHIN_MS) return void notBooked.push(`${o.i}: ${key}`);
        await Bun.sleep(1_000);
      }
    };
    // As many at once as the load had in flight.
    for (let n = 0; n < refused.length; n += IN_FLIGHT) await Promise.all(refused.slice(n, n + IN_FLIGHT).map(retryOne));
    console.log(`${refused.length} refused requests sent again: ${JSON.stringify(Object.fromEntries(retryAnswers))}; the slowest booked ${Math.round(slowestMs)} ms after its first retry`);
    expect(notBooked).toEqual([]);
    expect([...retryAnswers.keys()].filter((k) => k !== "200" && k !== "409 request_in_progress retry-after 1")).toEqual([]);

    // Every acknowledged order is there, booked and paid, whichever host is asked.
    const lost: string[] = [];
    for (const [n, orderId] of acknowledged.entries()) {
      const r = await (n % 2 === 0 ? b : a).ndcUnchecked("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      const paid = blocks(r.body, "PaymentFunctions").flatMap((pf) => all(pf, "PaymentStatusCode"));
      if (r.status !== 200 || !r.body.includes("<cns:StatusCode>BOOKED</cns:StatusCode>") || !paid.includes("CAPTURED")) lost.push(`${orderId}: ${r.status} ${errorCode(r.body) ?? paid.join(",")}`);
    }
    expect(lost).toEqual([]);
  },
  240_000,
);
