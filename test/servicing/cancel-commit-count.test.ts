import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { gateway } from "../orders-http/helpers";
import { acceptCancelRQ, bookCancellable, quote } from "./cancel-helpers";
import { BOOKING_TEST_MS } from "./helpers";

/**
 * Durable writes of a cancellation over HTTP (cancel/saga.ts, docs/servicing.md): the quote
 * writes nothing (its id is signed, not stored); the commit is 2 gateway writes, one per phase
 * (commit: order cancelled + stock released + operation row; close: refunds recorded + `done`),
 * plus 1 PSP write per refunded card leg. A retry after the end writes nothing. These fail
 * above the numbers, so a change that adds a write has to say so.
 */
const GATEWAY_WRITES_PER_CANCEL = 2;

let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);

test(`quote: no write; commit: ${GATEWAY_WRITES_PER_CANCEL} gateway writes and 1 PSP write per refunded card leg; a retry: none`, async () => {
  const { orderId } = await bookCancellable(t, "CANCEL-COUNT", { legs: 2 });

  const q = await countWrites(() => quote(t, orderId));
  expect(q.gateway + q.psp).toBe(0);
  const refunded = Math.round(Number(q.result.refund) * 100);

  const w = await countWrites(() => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.result.quoteId)));
  expect(w.result.status).toBe(200);
  expect(w.result.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
  expect(w.gateway).toBe(GATEWAY_WRITES_PER_CANCEL);
  // The refund is smaller than the newer leg here or spans both: one PSP refund per leg it touches.
  const touched = (await t.gw.orders.ctx.payments.ledger.legs(orderId)).filter((l) => l.refunded > 0).length;
  expect(touched).toBeGreaterThan(0);
  expect(w.psp).toBe(touched);
  expect(refunded).toBeGreaterThan(0);
  console.log(`gateway writes per cancellation: ${w.gateway} (+${w.psp} by the simulated PSP)`);

  const again = await countWrites(() => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.result.quoteId, { trxId: "TRX-2" })));
  expect(again.result.status).toBe(200);
  expect(again.gateway + again.psp).toBe(0);
}, BOOKING_TEST_MS);
