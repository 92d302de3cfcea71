import { afterAll, beforeAll, expect, test } from "bun:test";
import { PspTimeoutError } from "@ndc/payments";
import { RECONCILE_MAX_ATTEMPTS } from "@ndc/orders";
import { reconcileFailedCli } from "./reconcile-cli";
import { errorCode } from "../support/gateway";
import { book, card, FARE_MINOR, start, type Ctx } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor } from "./add-helpers";

/**
 * Issue 9 item 11 for a post-sale change (ORDRE2, spec 3): the change is committed (the order
 * holds the extra and its authorised leg), then the PSP keeps failing the capture. The
 * reconciler retries the order_add operation from its recovery point; after its last attempt it
 * is a reconcile_failed staff item, listed and resolved with `ndc-gateway reconcile-failed`
 * like a cancellation's refund, and left alone until resolved. A retry after the fix captures
 * once; a close settles it for good, and the seller's same ids are then never charged again.
 */
let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

const cli = (...args: string[]) => reconcileFailedCli(c.t, ...args);

/** A booked order and the OrderChangeRQ buying one paid extra for it. */
async function addition(tag: string): Promise<{ orderId: string; rq: string; amountMinor: number }> {
  const order = await book(c, { tag, payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const rq = addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: item.unitMinor }]);
  return { orderId: order.orderId, rq, amountMinor: item.unitMinor };
}

/** The PSP stops answering captures (every call times out) until `restore` is called. */
function captureDown(): { restore: () => void } {
  const psp = c.t.gw.orders.ctx.payments.psp;
  const capture = psp.capture.bind(psp);
  psp.capture = async () => {
    throw new PspTimeoutError();
  };
  return { restore: () => void (psp.capture = capture) };
}

const addLegs = async (orderId: string) => (await c.t.gw.orders.ctx.payments.ledger.legs(orderId)).filter((l) => l.changeRef !== "sale");

test("a capture still failing after the last attempt becomes a staff item; --retry after the fix captures it once", async () => {
  const { orderId, rq, amountMinor } = await addition("ARF1");
  const down = captureDown();
  try {
    const r = await c.t.ndc("OrderChangeRQ", rq);
    // The seller is told the PSP did not answer (a retry with the same ids resumes); the change is committed.
    expect([r.status, errorCode(r.body)]).toEqual([503, "psp_unavailable"]);
    expect(r.body).not.toContain("tok_approve_visa");
    const after = await c.t.gw.orders.retrieve(orderId, c.seller);
    expect(after.charges).toHaveLength(1);
    expect((await addLegs(orderId)).map((l) => l.state)).toEqual(["authorised"]);

    for (let i = 1; i < RECONCILE_MAX_ATTEMPTS; i++) {
      const rep = await c.t.gw.orders.reconcile();
      expect(rep.failed.length).toBe(1);
      expect(rep.raised).toEqual([]);
    }
    expect((await cli("list")).out).toEqual(["no open reconcile_failed items"]);
    const last = await c.t.gw.orders.reconcile();
    expect(last.raised.length).toBe(1);
    const opId = last.raised[0]!;
    expect((await c.t.gw.orders.ctx.operations.load(opId))?.kind).toBe("order_add");
    const listed = await cli("list");
    expect(listed.out.length).toBe(1);
    expect(listed.out[0]).toContain(opId);
    expect(listed.out[0]).toContain(`order ${orderId}`);
    // Raised: the reconciler leaves it alone.
    expect((await c.t.gw.orders.reconcile()).failed).toEqual([]);

    down.restore();
    expect((await cli("resolve", opId, "--retry", "--by", "agent-7", "--note", "PSP ticket 43")).out).toEqual([`${opId} resolved: retry`]);
    expect((await c.t.gw.orders.reconcile()).finished).toEqual([opId]);
    expect((await addLegs(orderId)).map((l) => [l.state, l.captured])).toEqual([["captured", amountMinor]]);
    expect((await c.t.gw.orders.retrieve(orderId, c.seller)).legs.filter((l) => l.changeRef !== "sale").map((l) => l.state)).toEqual(["captured"]);
    // The seller's retry answers the order; nothing is captured twice.
    expect((await c.t.ndc("OrderChangeRQ", rq)).status).toBe(200);
    expect((await addLegs(orderId)).map((l) => [l.state, l.captured])).toEqual([["captured", amountMinor]]);
    expect((await c.t.gw.orders.reconcile()).finished).toEqual([]);
  } finally {
    down.restore();
  }
});

test("--close: settled outside the gateway; never retried, and the seller's same ids are refused, not charged", async () => {
  const { orderId, rq } = await addition("ARF2");
  const down = captureDown();
  try {
    await c.t.ndc("OrderChangeRQ", rq);
    let raised: string[] = [];
    for (let i = 0; i < RECONCILE_MAX_ATTEMPTS; i++) raised = (await c.t.gw.orders.reconcile()).raised;
    expect(raised.length).toBe(1);
    const opId = raised[0]!;
    expect((await cli("resolve", opId, "--close", "--by", "agent-9", "--note", "captured by hand at the PSP")).out).toEqual([`${opId} resolved: closed`]);
    const op = await c.t.gw.orders.ctx.operations.load(opId);
    expect([op?.status, op?.errorCode]).toEqual(["compensated", "resolved_by_staff"]);
    down.restore();
    const rep = await c.t.gw.orders.reconcile();
    expect([rep.finished, rep.failed]).toEqual([[], []]);
    const again = await c.t.ndc("OrderChangeRQ", rq);
    expect(errorCode(again.body)).toBe("payment_leg_voided");
    expect((await addLegs(orderId)).map((l) => l.state)).toEqual(["authorised"]);
  } finally {
    down.restore();
  }
});
