/**
 * One machine lost under booking load (issue 23 item 4): host A SIGKILLed while two hosts on one
 * PostgreSQL book. Unlike two workers of one host (test/multi/sigkill-worker.test.ts), no other
 * machine can see that A's pid is gone: A is known dead only once its heartbeat lapses
 * (HEARTBEAT_LAPSE_MS, 30 s; decision 0040). Until then a retry on B of a request A was running
 * answers request_in_progress with Retry-After, as the seller retries; after it, B settles it, and
 * the scheduler app on a third machine takes over what A left, although its minimum age
 * (ORDERS_RECONCILE_MIN_AGE_MS, 10 minutes here) is far from passed. Every acknowledged order ends
 * booked and captured; nothing stays authorised or held.
 */
import { afterAll, expect, test } from "bun:test";
import { HEARTBEAT_LAPSE_MS } from "@ndc/orders";
import { orderLoad, shopWithSeats } from "../crash/load";
import { expectNothingHalfDone, footprint, reconciled } from "../crash/support";
import { orderIdOf } from "../orders-http/helpers";
import { MACHINES_NEED_POSTGRES, ON_POSTGRES } from "../support/database";
import { errorCode } from "../support/gateway";
import { anotherMachine, multiDataDir, type MultiDataDir } from "../multi/support";

if (!ON_POSTGRES) console.log(`test/machines/host-sigkill.test.ts skipped: ${MACHINES_NEED_POSTGRES}`);

const IN_FLIGHT = 8;
const ACKS_BEFORE_KILL = 30;
const hosts: MultiDataDir[] = [];
afterAll(async () => {
  for (const h of hosts.reverse()) await h.close();
});

test.skipIf(!ON_POSTGRES)(
  "SIGKILL of host A under OrderCreate load: every acknowledged order booked and captured, A's cut-off work finished by host B and the scheduler app once A's heartbeat lapsed",
  async () => {
    const hostA = multiDataDir();
    hosts.push(hostA);
    const a = await hostA.startWorker();
    expect((await fetch(`${a.url}/24.4`)).status).toBe(200);
    const hostB = anotherMachine(hostA, "host-b");
    const schedulerHost = anotherMachine(hostA, "host-c");
    hosts.push(hostB, schedulerHost);
    const b = await hostB.startWorker();
    const shop = await shopWithSeats(b, 3);

    const load = orderLoad((i) => (i % 2 === 0 ? a : b), shop, "HKILL", IN_FLIGHT, { goOnAfterCut: true });
    const { acknowledged, cutOff, other } = load.out;
    const t0 = performance.now();
    while (acknowledged.length < ACKS_BEFORE_KILL && other.length === 0) {
      if (performance.now() - t0 > 60_000) throw new Error(`only ${acknowledged.length} acknowledged`);
      await Bun.sleep(5);
    }
    await a.kill();
    const killedAt = performance.now();
    // B goes on serving; the senders to A see their requests cut off.
    await Bun.sleep(200);
    await load.stop();
    console.log(`killed host A after ${acknowledged.length} acks; ${cutOff.length} requests cut off`);
    expect(other).toEqual([]);
    expect(cutOff.length).toBeGreaterThan(0);
    const left = (await footprint(hostA.dir)).openSagas.length;
    console.log(`host A left ${left} operations running`);

    // The scheduler app on a third machine, reconciling every second, but only what is 10 minutes
    // old or whose owner is known dead.
    const app = await schedulerHost.startSchedulerApp({ ORDERS_BACKGROUND_MS: "1000", ORDERS_RECONCILE_MIN_AGE_MS: "600000" });

    // Half the cut-off requests sent again to B, as a seller retries: answered with the order, or
    // "still in progress, retry" while A still looks alive, and never anything else.
    let inProgress = 0;
    const retried = cutOff.filter((_, j) => j % 2 === 0);
    for (const c of retried) {
      for (;;) {
        const r = await b.ndcUnchecked("OrderCreateRQ", c.body);
        if (r.status === 200) {
          expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
          acknowledged.push(orderIdOf(r.body));
          break;
        }
        expect({ i: c.i, status: r.status, code: errorCode(r.body), retryAfter: r.headers.get("retry-after") }).toEqual({ i: c.i, status: 409, code: "request_in_progress", retryAfter: "1" });
        inProgress++;
        if (performance.now() - killedAt > HEARTBEAT_LAPSE_MS + 30_000) throw new Error(`request ${c.i} still in progress ${HEARTBEAT_LAPSE_MS / 1000 + 30} s after the kill`);
        await Bun.sleep(1_000);
      }
    }
    console.log(`retried ${retried.length} cut-off requests on host B: ${inProgress} answers "in progress" first; the last answered ${Math.round(performance.now() - killedAt)} ms after the kill`);

    const f = await reconciled(hostA.dir, HEARTBEAT_LAPSE_MS + 30_000).finally(() => app.stop());
    console.log(`reconciled ${Math.round(performance.now() - killedAt)} ms after the kill`);
    expectNothingHalfDone(f, acknowledged);
  },
  180_000,
);
