import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { decimal, gateway, orderCreateRQ, orderIdOf, shopOffer } from "./helpers";
import { paymentRetryRQ } from "./order-list-helpers";

/**
 * Durable writes of an OrderChangeRQ paying a held order (issue 8 §1, payment/retry.ts): the
 * payment retry runs in the phases of an OrderCreate, one write each: open (operation and
 * planned legs), commit (the order booked with its holds confirmed, the leg answers, the seat
 * confirmations), close (captures, `done`). The simulated PSP's writes (authorise, capture per
 * card leg) are counted apart. Fails above the numbers in docs/orders.md ("Durable commits").
 */
// 16 before (a write per saga mark, per hold confirmation and per ledger step; 9 for a decline); 3 in phases.
const MAX_GATEWAY_WRITES_PER_PAID_RETRY = 3;

let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);

async function heldOrder(correlationId: string) {
  const shopped = await shopOffer(t, { pax: 1, seat: true });
  const held = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId, trxId: "T" }));
  expect(held.body).toContain("<cns:StatusCode>HELD</cns:StatusCode>");
  return { orderId: orderIdOf(held.body), amount: decimal(shopped.totalMinor) };
}

test(`paying a held order with a seat: ${MAX_GATEWAY_WRITES_PER_PAID_RETRY} gateway writes and 2 PSP writes; the same attempt again makes none`, async () => {
  const { orderId, amount } = await heldOrder("RETRY-COUNT-1");
  const rq = paymentRetryRQ(orderId, amount, "tok_approve_visa", { correlationId: "RC-1", trxId: "RT-1" });
  const w = await countWrites(() => t.ndc("OrderChangeRQ", rq));
  expect(w.result.status).toBe(200);
  expect(w.result.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  expect(w.gateway).toBe(MAX_GATEWAY_WRITES_PER_PAID_RETRY);
  expect(w.psp).toBe(2);
  console.log(`gateway writes per paid OrderChangeRQ: ${w.gateway} (+${w.psp} by the simulated PSP)`);
  // The seat was confirmed in the commit write: the order says so and nothing is left to finish.
  const order = t.gw.orders.ctx.orders.peek(orderId)!.value!;
  expect(order.inventoryConfirmed).toBe(true);
  expect(order.legs.map((l) => l.state)).toEqual(["captured"]);

  const again = await countWrites(() => t.ndc("OrderChangeRQ", rq));
  expect(again.result.status).toBe(200);
  expect(again.result.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  expect(again.gateway + again.psp).toBe(0);
});

test("a declined retry: open and commit (still held, the decline recorded, `done`); 1 PSP write", async () => {
  const { orderId, amount } = await heldOrder("RETRY-COUNT-2");
  const w = await countWrites(() => t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, amount, "tok_decline", { correlationId: "RC-2", trxId: "RT-2" })));
  expect(w.result.status).toBe(200);
  expect(w.result.body).toContain("<cns:StatusCode>HELD</cns:StatusCode>");
  expect([w.gateway, w.psp]).toEqual([2, 1]);
});
