import { afterAll, beforeAll, expect, test } from "bun:test";
import { PspTimeoutError } from "@ndc/payments";
import type { TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { acceptCancelRQ, bookCancellable, quote, sellerOf } from "./cancel-helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { BOOKING_TEST_MS } from "./helpers";

/**
 * Spec 3, reconciliation of an unfinished leg: the reconciler captures a leg that the committed
 * change recorded as paying for it, and voids it instead if the order was cancelled since. Here
 * an extra is added (committed, its leg authorised) while the PSP cannot capture; the seller
 * then cancels the whole order (the quote refunds only what was captured); the reconciler, the
 * PSP back, voids the extra's leg: nothing is captured for a cancelled order.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

test("an addition whose capture was pending when the order was cancelled: its leg is voided, never captured", async () => {
  const { orderId, order } = await bookCancellable(t, "ACS1", { seat: false });
  const listed = await extrasFor(t, orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const paxId = order.passengers[0]!.paxId;
  const psp = t.gw.orders.ctx.payments.psp;
  const capture = psp.capture.bind(psp);
  psp.capture = async () => {
    throw new PspTimeoutError();
  };
  try {
    const r = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
    expect(r.status).toBe(503);
    const q = await quote(t, orderId);
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId))).status).toBe(200);
  } finally {
    psp.capture = capture;
  }
  expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).state).toBe("cancelled");
  const rep = await t.gw.orders.reconcile();
  expect(rep.failed).toEqual([]);
  expect(rep.finished.length).toBe(1);
  const legs = (await t.gw.orders.ctx.payments.ledger.legs(orderId)).filter((l) => l.changeRef !== "sale");
  expect(legs.map((l) => [l.state, l.captured])).toEqual([["voided", 0]]);
  const op = await t.gw.orders.ctx.operations.load(rep.finished[0]!);
  expect([op?.kind, op?.status, op?.errorCode]).toEqual(["order_add", "done", "order_cancelled"]);
  expect((await t.gw.orders.reconcile()).finished).toEqual([]);
}, BOOKING_TEST_MS);
