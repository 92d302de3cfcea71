import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { isGatewayError } from "@ndc/errors";
import { orderIds } from "@ndc/orders";
import { boot, card, freeSeats, orderInput, SELLER, shop, tempDir, type Booted } from "./helpers";

/**
 * fast-check: interleavings of OrderCreate (paid, unpaid, declined), payment retries, clock
 * moves, expiry sweeps and reconciler passes, several orders competing for three seats. After
 * each run: no seat has two live claims; a booked order has its seats sold and its paying legs
 * captured; a held order its seats held; a cancelled or absent order holds nothing and no leg is
 * left authorised anywhere.
 */
let b: Booted;
const tmp = tempDir();
let pool: string[];
beforeAll(async () => {
  b = await boot(tmp.url);
  pool = freeSeats(b.supply).slice(100, 160);
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

type Op =
  | { kind: "create"; n: number; seat: number; pay: "none" | "approve" | "decline" }
  | { kind: "retry"; n: number }
  | { kind: "advance"; hours: number }
  | { kind: "expire" }
  | { kind: "reconcile" };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("create" as const), n: fc.nat(5), seat: fc.nat(2), pay: fc.constantFrom("none" as const, "approve" as const, "decline" as const) }),
  fc.record({ kind: fc.constant("retry" as const), n: fc.nat(5) }),
  fc.record({ kind: fc.constant("advance" as const), hours: fc.integer({ min: 1, max: 30 }) }),
  fc.constant({ kind: "expire" as const }),
  fc.constant({ kind: "reconcile" as const }),
);

let run = 0;
test("no interleaving sells a seat twice or strands a hold or an authorised leg", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 12 }), async (ops) => {
      run++;
      const seats = pool.slice((run * 3) % 57, ((run * 3) % 57) + 3);
      const tags = new Map<number, { tag: string; total: number }>();
      const pending: Promise<unknown>[] = [];
      for (const o of ops) {
        if (o.kind === "create") {
          const tag = `p${run}-${o.n}`;
          if (!tags.has(o.n)) {
            const s = await shop(b, { tag, seats: [seats[o.seat]!] });
            tags.set(o.n, { tag, total: s.total });
            const payment = o.pay === "none" ? undefined : [card(s.total, o.pay === "approve" ? "tok_approve_visa" : "tok_decline")];
            // not awaited: creations interleave with each other and with the other steps
            pending.push(b.orders.create(orderInput(tag, s, { payment })).catch(expectRefusal));
          }
        } else if (o.kind === "retry") {
          const t = tags.get(o.n);
          if (t) pending.push(b.orders.retryPayment(orderIdOf(t.tag), SELLER, [card(t.total)], `r${run}-${pending.length}`).catch(expectRefusal));
        } else if (o.kind === "advance") b.clock.advance(o.hours * 3_600_000);
        else if (o.kind === "expire") pending.push(b.orders.expireUnpaid(b.clock.now()));
        else pending.push(b.orders.reconcile(b.clock.now(), { minAgeMs: 0 }));
      }
      await Promise.all(pending);
      await b.orders.reconcile(b.clock.now(), { minAgeMs: 0 });

      const live = (await b.store.db.all(sql`SELECT seat_id, count(*) AS n FROM seat_inventory WHERE status IN ('held','sold') AND expires_at > ${b.clock.now()} OR status = 'sold' GROUP BY flight_key, seat_id HAVING count(*) > 1`)) as unknown[];
      expect(live).toEqual([]);
      const authorised = (await b.store.db.all(sql`SELECT leg_id FROM payment_legs WHERE state IN ('authorised','authorising')`)) as unknown[];
      expect(authorised).toEqual([]);
      for (const { tag } of tags.values()) {
        const orderId = orderIdOf(tag);
        const rows = (await b.store.db.all(sql`SELECT state, payment_time_limit AS limitAt FROM orders WHERE order_id = ${orderId}`)) as { state: string; limitAt: number | null }[];
        const claims = (await b.store.db.all(sql`SELECT status FROM seat_inventory WHERE holder = ${orderId} AND status IN ('held','sold')`)) as { status: string }[];
        const state = rows[0]?.state;
        if (state === "booked") {
          expect(claims.map((c) => c.status)).toEqual(["sold"]);
          const legs = (await b.store.db.all(sql`SELECT state FROM payment_legs WHERE order_id = ${orderId} AND state = 'captured'`)) as unknown[];
          expect(legs).toHaveLength(1);
        } else if (state === "held_unpaid" || state === "held_payment_declined") {
          // past its time limit (not swept yet) the hold has lapsed and the seat may be someone else's
          if (b.clock.now() < rows[0]!.limitAt!) expect(claims.map((c) => c.status)).toEqual(["held"]);
          else expect(claims.every((c) => c.status === "held")).toBe(true);
        } else {
          expect(claims).toEqual([]);
        }
      }
    }),
    { numRuns: 25 },
  );
}, 30_000);

function orderIdOf(tag: string): string {
  return orderIds.order(orderIds.createSaga(SELLER.clientId, `corr-${tag}`, `trx-${tag}`));
}

function expectRefusal(e: unknown): void {
  if (!isGatewayError(e)) throw e;
}
