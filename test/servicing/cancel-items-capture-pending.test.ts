import { afterAll, beforeAll, expect, test } from "bun:test";
import { PspTimeoutError } from "@ndc/payments";
import type { ManualClock } from "@ndc/clock";
import type { TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { acceptCancelRQ, bookCancellable, quoteItems, sellerOf } from "./cancel-helpers";
import { addRQ, extrasFor } from "./add-helpers";

/**
 * Spec 3, post-sale charge life cycle (issue 19 item 12, docs/servicing.md#cancelling-items): an
 * extra added to a booked order whose capture is still pending (the PSP did not answer the
 * capture) and then cancelled alone is VOIDED: its authorisation released, nothing captured for
 * it, and nothing refunded from the sale's legs. Over HTTP; every answer XSD-checked by t.ndc.
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
}, 60_000);
afterAll(() => t.close());

test("an extra cancelled while its capture is pending: the quote refunds nothing, its leg is voided, the sale's legs give nothing back, and the reconciler captures nothing", async () => {
  const { orderId, order } = await bookCancellable(t, "ICP1", { seat: false });
  const listed = await extrasFor(t, orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const paxId = order.passengers[0]!.paxId;
  const psp = t.gw.orders.ctx.payments.psp;
  const capture = psp.capture.bind(psp);
  // The PSP does not answer captures: the addition is committed, its leg authorised, its capture pending.
  psp.capture = async () => {
    throw new PspTimeoutError();
  };
  let extraId: string;
  try {
    const added = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId }], [{ card: "tok_approve_mastercard", minor: item.unitMinor }], { correlationId: "add-ICP1" }));
    expect(added.status).toBe(503);
  } finally {
    psp.capture = capture;
  }
  const withExtra = await t.gw.orders.retrieve(orderId, sellerOf(t));
  extraId = withExtra.items.find((i) => i.offerId === listed.offerId)!.orderItemId;
  const extraLeg = () => t.gw.orders.ctx.payments.ledger.legs(orderId).then((ls) => ls.find((l) => l.changeRef !== "sale")!);
  expect((await extraLeg()).state).toBe("authorised");

  const q = await quoteItems(t, orderId, [extraId]);
  // Nothing was taken for the extra, so nothing comes back; its authorisation is released instead.
  expect(q.refund).toBe("0.00");
  expect(q.body).toContain("not yet taken");
  const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: "cx-ICP1" }));
  expect(r.status).toBe(200);
  expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  expect(r.body).not.toContain("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>");

  const voided = await extraLeg();
  expect([voided.state, voided.captured, voided.refunded]).toEqual(["voided", 0, 0]);
  const sale = (await t.gw.orders.ctx.payments.ledger.legs(orderId)).filter((l) => l.changeRef === "sale");
  expect(sale.map((l) => l.refunded)).toEqual(sale.map(() => 0));
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(after.items.some((i) => i.orderItemId === extraId)).toBe(false);
  expect(after.totalMinor).toBe(order.totalMinor);

  // The addition's unfinished operation is finished by the reconciler without a capture.
  const rep = await t.gw.orders.reconcile(clock.now(), { minAgeMs: 0 });
  expect(rep.failed).toEqual([]);
  const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
  expect(legs.reduce((n, l) => n + l.captured, 0)).toBe(sale.reduce((n, l) => n + l.captured, 0));
  expect(legs.reduce((n, l) => n + l.refunded, 0)).toBe(0);
  expect((await extraLeg()).state).toBe("voided");
}, 60_000);
