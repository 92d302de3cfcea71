import { afterAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { isGatewayError } from "@ndc/errors";
import { boot, card, freeSeats, orderInput, shop, tempDir } from "./helpers";

/**
 * Two gateways on one store, the same OrderCreate at both, in the one interleaving that the
 * request layer's begin() cannot catch: B read no operation row, then A opened it, then B's saga
 * loads A's `running` row. Made deterministic by holding A inside the PSP's authorisation (A's
 * open write is done, its seat held, its leg planned) while B's saga runs. B must answer
 * request_in_progress and write nothing; it used to resume A's row as its own, running A's
 * phases a second time (and on a refusal compensating them, freeing the seat A then sold).
 */
const tmp = tempDir();
afterAll(() => tmp.cleanup());
const TOTAL = 21_500; // a passenger's fare and a seat (helpers.ts shop())

test("a saga finding another live gateway's running operation answers request_in_progress and takes nothing over", async () => {
  const a = await boot(tmp.url);
  const b = await boot(tmp.url);
  try {
    const seat = freeSeats(a.supply)[70]!;
    await shop(a, { tag: "elsewhere", seats: [seat] });
    const input = orderInput("elsewhere", { flightOfferId: "OF-elsewhere", extrasOfferId: "AL-elsewhere" }, { payment: [card(TOTAL)] });

    // A pauses in the PSP call that follows its open write.
    let reachedPsp!: () => void;
    const atPsp = new Promise<void>((r) => (reachedPsp = r));
    let letGo!: () => void;
    const gate = new Promise<void>((r) => (letGo = r));
    const authorise = a.payments.sale.authorise.bind(a.payments.sale);
    a.payments.sale.authorise = async (...args: Parameters<typeof authorise>) => {
      reachedPsp();
      await gate;
      return authorise(...args);
    };
    const aDone = a.orders.create(input);
    await atPsp;

    const before = await counts(b);
    const bAnswer = await b.orders.create(input).then(
      (o) => o.orderId,
      (e) => (isGatewayError(e) ? e.code : `unexpected: ${e}`),
    );
    expect(bAnswer).toBe("request_in_progress");
    expect(await counts(b)).toEqual(before);

    letGo();
    const order = await aDone;
    expect(order.state).toBe("booked");
    const rows = (await a.store.db.all(sql`SELECT status, holder FROM seat_inventory WHERE seat_id = ${seat} AND status IN ('held', 'sold')`)) as unknown[];
    expect(rows).toEqual([{ status: "sold", holder: order.orderId }]);
    const legs = (await a.store.db.all(sql`SELECT state, count(*) AS n FROM payment_legs WHERE order_id = ${order.orderId} GROUP BY state`)) as unknown[];
    expect(legs).toEqual([{ state: "captured", n: 1 }]);

    // Once A has finished, B's retry is answered with A's order (the row is done, not running).
    expect((await b.orders.create(input)).orderId).toBe(order.orderId);
  } finally {
    await b.close();
    await a.close();
  }
}, 30_000);

async function counts(g: Awaited<ReturnType<typeof boot>>): Promise<unknown> {
  const totals = await g.store.db.all(sql`SELECT
    (SELECT count(*) FROM operations) AS operations,
    (SELECT count(*) FROM payment_legs) AS legs,
    (SELECT count(*) FROM actor_journal) AS journal,
    (SELECT count(*) FROM seat_inventory WHERE status = 'held') AS held`);
  // Each operation's lock owner, in a fixed order (a list, not group_concat: SQLite's only).
  const owners = await g.store.db.all(sql`SELECT operation_id, lock_owner FROM operations ORDER BY operation_id`);
  return { totals, owners };
}
