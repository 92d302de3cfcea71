import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { countWrites } from "../support/count-writes";
import { boot, card, footprint, freeSeats, orderInput, shop, tempDir, type Booted } from "./helpers";

/**
 * The OrderCreate saga's writes do not grow with what the order holds (issue 8 §1, atomic
 * phases): one seat or two seats, a partner product and two card legs, the saga makes 3 writes
 * (open, commit, close: the request layer's stored answer is the 4th, counted over HTTP in
 * test/orders-http/commit-count.test.ts); only the simulated PSP's grow, two per card leg.
 */
let b: Booted;
const tmp = tempDir();
beforeAll(async () => {
  b = await boot(tmp.url);
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

const sagaWrites = async (fn: () => Promise<unknown>) => {
  const { gateway, psp } = await countWrites(b.store, b.payments.psp, fn);
  return { gateway, psp };
};

test("one seat and a card leg: 3 saga writes, 2 PSP writes", async () => {
  const s = await shop(b, { tag: "phase-1", seats: freeSeats(b.supply).slice(20, 21) });
  expect(await sagaWrites(() => b.orders.create(orderInput("phase-1", s, { payment: [card(s.total)] })))).toEqual({ gateway: 3, psp: 2 });
});

test("two seats, a partner product and two card legs: the same 3 saga writes, 4 PSP writes; everything taken is sold and captured", async () => {
  const seats = freeSeats(b.supply).slice(22, 24);
  const s = await shop(b, { tag: "phase-2", seats, partners: ["PP-ESIM"], pax: 2 });
  const half = Math.floor(s.total / 2);
  let orderId = "";
  const w = await sagaWrites(async () => {
    const order = await b.orders.create(orderInput("phase-2", s, { pax: 2, payment: [card(half), card(s.total - half, "tok_approve_mastercard")] }));
    orderId = order.orderId;
    expect(order.state).toBe("booked");
    expect(order.inventoryConfirmed).toBe(true);
  });
  expect(w).toEqual({ gateway: 3, psp: 4 });
  const f = await footprint(b.store, orderId);
  expect(f.seats.map((x: { status: string }) => x.status)).toEqual(["sold", "sold"]);
  expect(f.partners).toEqual([{ product_code: "PP-ESIM", status: "sold" }]);
  expect(f.legs.map((l: { state: string }) => l.state)).toEqual(["captured", "captured"]);
  // The operation closed in the same write as the captures.
  const op = (await b.store.db.all(sql`SELECT phase, status FROM operations WHERE order_id = ${orderId}`)) as { phase: string; status: string }[];
  expect(op).toEqual([{ phase: "done", status: "done" }]);
});
