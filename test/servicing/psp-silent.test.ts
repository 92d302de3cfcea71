import { afterAll, beforeAll, expect, test } from "bun:test";
import { PspTimeoutError } from "@ndc/payments";
import { errorCode } from "../support/gateway";
import { book, card, FARE_MINOR, start, type Ctx } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor } from "./add-helpers";

/**
 * A PSP that times out on an authorisation and again when asked what became of it: the
 * post-sale change cannot know whether money was taken, so the seller is told the PSP did not
 * answer (503 psp_unavailable, never a 500), the leg is left `authorising` and the operation to
 * the reconciler, which settles it once the PSP answers again.
 */
let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

test("authorise and its status both time out: 503 psp_unavailable, the leg left for the reconciler, settled once the PSP answers", async () => {
  const order = await book(c, { tag: "SILENT", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const rq = addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: item.unitMinor }]);
  const psp = c.t.gw.orders.ctx.payments.psp;
  const [authorise, status] = [psp.authorise.bind(psp), psp.status.bind(psp)];
  psp.authorise = async () => {
    throw new PspTimeoutError();
  };
  psp.status = async () => {
    throw new PspTimeoutError();
  };
  try {
    const r = await c.t.ndc("OrderChangeRQ", rq);
    expect([r.status, errorCode(r.body)]).toEqual([503, "psp_unavailable"]);
    const legs = (await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId)).filter((l) => l.changeRef !== "sale");
    expect(legs.map((l) => l.state)).toEqual(["authorising"]);
  } finally {
    psp.authorise = authorise;
    psp.status = status;
  }
  // The PSP answers again: it never saw the authorisation, so the reconciler closes the leg declined and nothing is charged.
  await c.t.gw.orders.reconcile(undefined, { minAgeMs: 0 });
  const legs = (await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId)).filter((l) => l.changeRef !== "sale");
  expect(legs.map((l) => l.state)).toEqual(["declined"]);
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).charges ?? []).toHaveLength(0);
});
