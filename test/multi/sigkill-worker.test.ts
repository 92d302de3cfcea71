import { afterAll, expect, test } from "bun:test";
import { rngFor } from "@ndc/supply";
import { orderLoad, shopWithSeats } from "../crash/load";
import { expectNothingHalfDone, footprint, reconciled } from "../crash/support";
import { orderIdOf } from "../orders-http/helpers";
import { errorCode } from "../support/gateway";
import { multiDataDir, startSchedulerApp } from "./support";

/**
 * SIGKILL of one of two workers under booking load (issue 22 item 4): no acknowledged order lost,
 * no authorisation stranded. What the killed worker left running is owned by a dead process
 * (liveness, docs/decisions/0040): a retry of its request on the other worker settles it at once
 * (no request_in_progress for a dead owner), and a reconciler in a third process takes over the
 * rest at once although ORDERS_RECONCILE_MIN_AGE_MS (10 min here) is far from passed.
 */
const IN_FLIGHT = 8;
const ACKS_BEFORE_KILL = 30;
const SEED = process.env.CRASH_LOAD_SEED?.trim() || String(Date.now() % 1_000_000_007);
const pauses = rngFor(SEED, "multi-pause-before-kill");
const data = multiDataDir();
afterAll(() => data.close());

test(
  "SIGKILL of one worker under OrderCreate load: every acknowledged order booked and captured; its cut-off work taken over at once",
  async () => {
    const a = await data.startWorker();
    const b = await data.startWorker();
    const shop = await shopWithSeats(b, 3);

    // The load: IN_FLIGHT senders, each request to A or B in turn, each its own CorrelationID;
    // a request cut off by the kill is kept to be sent elsewhere after.
    const load = orderLoad((i) => (i % 2 === 0 ? a : b), shop, "MKILL", IN_FLIGHT, { goOnAfterCut: true });
    const { acknowledged, cutOff, other } = load.out;
    const t0 = performance.now();
    while (acknowledged.length < ACKS_BEFORE_KILL && other.length === 0) {
      if (performance.now() - t0 > 60_000) throw new Error(`only ${acknowledged.length} acknowledged`);
      await Bun.sleep(5);
    }
    const pause = pauses.int(150);
    await Bun.sleep(pause);
    await a.kill();
    // B goes on serving; the senders to A see their requests cut off.
    await Bun.sleep(200);
    await load.stop();
    console.log(`killed A after ${acknowledged.length} acks (+${pause} ms, CRASH_LOAD_SEED=${SEED}); ${cutOff.length} cut off`);
    expect(other).toEqual([]);
    expect(cutOff.length).toBeGreaterThan(0);

    // What A left running under its lock (how many the take-over below really meets).
    const left = (await footprint(data.dir)).openSagas.length;
    console.log(`A left ${left} operations running`);

    // Half the cut-off requests are sent again to B at once: answered, never "in progress"
    // although their operation is still running under A's lock (A is dead).
    const retried = cutOff.filter((_, j) => j % 2 === 0);
    for (const c of retried) {
      const r = await b.ndc("OrderCreateRQ", c.body);
      expect({ i: c.i, status: r.status, code: r.status === 200 ? undefined : errorCode(r.body) }).toEqual({ i: c.i, status: 200, code: undefined });
      expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
      acknowledged.push(orderIdOf(r.body));
    }

    // The rest is left to the scheduler app's reconciler, which would touch nothing younger than
    // 10 minutes: only A being known dead lets it take A's operations over at once.
    const scheduler = await startSchedulerApp(data.dir, { ORDERS_BACKGROUND_MS: "1000", ORDERS_RECONCILE_MIN_AGE_MS: "600000" });
    const f = await reconciled(data.dir, 15_000).finally(() => scheduler.stop());
    expectNothingHalfDone(f, acknowledged);
  },
  180_000,
);
