import { afterAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { GatewayError, isGatewayError } from "@ndc/errors";
import { boot, card, freeSeats, orderInput, shop, tempDir, type Booted } from "./helpers";

/**
 * A saga given up part-way by a transient store failure (decision 0040's addendum "abandoned by
 * its own process"), in process: two gateways A and B on one store and one business clock that
 * stands still (the ManualClock: every write of the test has the same updated_at). A's PSP call
 * after its open write fails with store_unavailable, and so does the compensation's first
 * release of a hold: A's operation is left running under A. A releases its claim in the
 * background, and B's retry resumes it: the same order, booked, its seat sold, one capture.
 * Before, B was answered request_in_progress (A is alive). Two retries of the released row at
 * once: one claims and books it, the other is answered request_in_progress. The store still out
 * of reach when the saga gives up: the release is tried again until it lands. The real processes and a real outage:
 * test/multi/outage-mid-saga.test.ts, test/machines/postgres-restart.test.ts.
 */
const tmp = tempDir();
afterAll(() => tmp.cleanup());
const TOTAL = 21_500; // a passenger's fare and a seat (helpers.ts shop())

/**
 * A's next PSP authorisation and next hold release fail as a store out of reach does; then
 * `writesRefusedAfter` more of A's writes do (the store still down when the saga gives up).
 */
function outageMidSaga(a: Booted, writesRefusedAfter = 0): { refusedWrites: () => number } {
  const unavailable = () => new GatewayError("store_unavailable", { detail: "(test: the database restarting)", retryAfterSeconds: 1 });
  const authorise = a.payments.sale.authorise.bind(a.payments.sale);
  let authoriseFails = true;
  a.payments.sale.authorise = async (...args: Parameters<typeof authorise>) => {
    if (!authoriseFails) return authorise(...args);
    authoriseFails = false;
    throw unavailable();
  };
  const release = a.inventory.releaseSeats.bind(a.inventory);
  let releaseFails = true;
  let refusing = 0;
  let refused = 0;
  a.inventory.releaseSeats = async (...args: Parameters<typeof release>) => {
    if (!releaseFails) return release(...args);
    releaseFails = false;
    refusing = writesRefusedAfter;
    throw unavailable();
  };
  const write = a.store.write.bind(a.store);
  a.store.write = ((fn: Parameters<typeof write>[0]) => {
    if (refusing === 0) return write(fn);
    refusing--;
    refused++;
    return Promise.reject(unavailable());
  }) as typeof a.store.write;
  return { refusedWrites: () => refused };
}

const codeOf = (p: Promise<{ orderId: string }>) => p.then((o) => o.orderId, (e) => (isGatewayError(e) ? e.code : `unexpected: ${e}`));

async function ownerOf(b: Booted, correlationId: string): Promise<{ status: string; owner: string | null }[]> {
  return (await b.store.db.all(sql`SELECT status, lock_owner AS owner FROM operations WHERE correlation_id = ${correlationId}`)) as { status: string; owner: string | null }[];
}

async function until(what: string, cond: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = performance.now() + ms;
  while (!(await cond())) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await Bun.sleep(5);
  }
}

test("given up mid-saga by store_unavailable: the claim is released, and another gateway's retry resumes it to the same booked order", async () => {
  const a = await boot(tmp.url);
  const b = await boot(tmp.url, { clock: a.clock });
  try {
    const seat = freeSeats(a.supply)[80]!;
    await shop(a, { tag: "given-up", seats: [seat] });
    const input = orderInput("given-up", { flightOfferId: "OF-given-up", extrasOfferId: "AL-given-up" }, { payment: [card(TOTAL)] });
    outageMidSaga(a);
    expect(await codeOf(a.orders.create(input))).toBe("store_unavailable");

    // Released in the background (the store is back at once here): no owner, still running.
    await until("A's claim released", async () => (await ownerOf(b, input.correlationId))[0]?.owner === null);
    expect(await ownerOf(b, input.correlationId)).toEqual([{ status: "running", owner: null }]);

    const order = await b.orders.create(input);
    expect(order.state).toBe("booked");
    const seats = (await b.store.db.all(sql`SELECT status, holder FROM seat_inventory WHERE seat_id = ${seat} AND status IN ('held', 'sold')`)) as unknown[];
    expect(seats).toEqual([{ status: "sold", holder: order.orderId }]);
    const legs = (await b.store.db.all(sql`SELECT state, count(*) AS n FROM payment_legs WHERE order_id = ${order.orderId} GROUP BY state`)) as unknown[];
    expect(legs).toEqual([{ state: "captured", n: 1 }]);
    expect(await ownerOf(b, input.correlationId)).toEqual([{ status: "done", owner: b.orders.ctx.instanceId }]);
    // A, asked again, is answered with that order (the row is done).
    expect((await a.orders.create(input)).orderId).toBe(order.orderId);
  } finally {
    await b.close();
    await a.close();
  }
}, 30_000);

test("a released row resumed by two gateways at once under a clock standing still: one resumes it, the other is answered request_in_progress", async () => {
  const a = await boot(tmp.url);
  const b = await boot(tmp.url, { clock: a.clock });
  const c = await boot(tmp.url, { clock: a.clock });
  try {
    const seat = freeSeats(a.supply)[81]!;
    await shop(a, { tag: "twice-resumed", seats: [seat] });
    const input = orderInput("twice-resumed", { flightOfferId: "OF-twice-resumed", extrasOfferId: "AL-twice-resumed" }, { payment: [card(TOTAL)] });
    outageMidSaga(a);
    expect(await codeOf(a.orders.create(input))).toBe("store_unavailable");
    await until("A's claim released", async () => (await ownerOf(b, input.correlationId))[0]?.owner === null);

    // B and C both read the released row (same updated_at: the clock stands still) before either reopens it.
    const both = await Promise.all([codeOf(b.orders.create(input)), codeOf(c.orders.create(input))]);
    const booked = both.filter((x) => x !== "request_in_progress");
    expect(booked).toHaveLength(1);
    expect(booked[0]).toMatch(/^[A-Z0-9-]+$/);
    const orders = (await a.store.db.all(sql`SELECT order_id AS id, state FROM orders WHERE order_id IN (SELECT order_id FROM operations WHERE correlation_id = ${input.correlationId})`)) as unknown[];
    expect(orders).toEqual([{ id: booked[0], state: "booked" }]);
    const legs = (await a.store.db.all(sql`SELECT state, count(*) AS n FROM payment_legs WHERE order_id = ${booked[0]!} GROUP BY state`)) as unknown[];
    expect(legs).toEqual([{ state: "captured", n: 1 }]);
  } finally {
    await c.close();
    await b.close();
    await a.close();
  }
}, 30_000);

test("the store still out of reach when the saga gives up: the release is tried again in the background until it lands", async () => {
  const a = await boot(tmp.url);
  const b = await boot(tmp.url, { clock: a.clock });
  try {
    const seat = freeSeats(a.supply)[82]!;
    await shop(a, { tag: "still-down", seats: [seat] });
    const input = orderInput("still-down", { flightOfferId: "OF-still-down", extrasOfferId: "AL-still-down" }, { payment: [card(TOTAL)] });
    const outage = outageMidSaga(a, 4);
    expect(await codeOf(a.orders.create(input))).toBe("store_unavailable");
    await until("A's claim released", async () => (await ownerOf(b, input.correlationId))[0]?.owner === null);
    // Its first four tries refused, the fifth landed.
    expect(outage.refusedWrites()).toBe(4);
    expect((await b.orders.create(input)).state).toBe("booked");
  } finally {
    await b.close();
    await a.close();
  }
}, 30_000);
