import { afterAll, beforeAll, expect, test } from "bun:test";
import { PspTimeoutError } from "@ndc/payments";
import { RECONCILE_MAX_ATTEMPTS } from "@ndc/orders";
import { reconcileFailedCli } from "./reconcile-cli";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { addRQ } from "./add-helpers";
import { bookCancellable, sellerOf } from "./cancel-helpers";
import { bookBrand, BOOKING_TEST_MS } from "./helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { dayAfter, T0 } from "../support/dates";

/**
 * The reconciler and an `order_change_flight` operation (servicing/flight/saga.ts), over HTTP:
 * past its commit point it is finished (the leg captured once), and a capture still failing after
 * its last attempt becomes a reconcile_failed staff item (`ndc-gateway reconcile-failed`); a
 * cheaper change's refund the same (refunded once, after the fix). Short
 * of its commit it is compensated (test/crash/flight-change-crash-points.test.ts).
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const cli = (...args: string[]) => reconcileFailedCli(t, ...args);

async function change(tag: string, date: string) {
  const { order } = await bookCancellable(t, tag, { brand: "CLASSIC" });
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date }));
  const o = q.offers[0]!;
  const dueMinor = Math.round(Number(o.due) * 100);
  const rq = addRQ(order.orderId, o.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: dueMinor }], { correlationId: `fr-${tag}`, trxId: "trx-1" });
  return { order, rq, dueMinor };
}

/** Every call of the PSP method named times out until `restore`. */
function down(...methods: ("capture" | "refund")[]): { restore: () => void } {
  const psp = t.gw.orders.ctx.payments.psp as unknown as Record<string, unknown>;
  const saved = methods.map((m) => [m, psp[m]] as const);
  for (const m of methods) {
    psp[m] = async () => {
      throw new PspTimeoutError();
    };
  }
  return { restore: () => saved.forEach(([m, f]) => (psp[m] = f)) };
}

const changeLegs = async (orderId: string) => (await t.gw.orders.ctx.payments.ledger.legs(orderId)).filter((l) => l.changeRef !== "sale");

test("committed, capture failing: retried to the last attempt, raised as reconcile_failed; --retry after the fix captures once", async () => {
  const { order, rq, dueMinor } = await change("FR1", dayAfter(T0, 53));
  const psp = down("capture");
  try {
    const r = await t.ndc("OrderChangeRQ", rq);
    expect([r.status, errorCode(r.body)]).toEqual([503, "psp_unavailable"]);
    const after = await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" });
    expect(after!.journeys[0]!.flightKeys).not.toEqual(order.journeys[0]!.flightKeys);
    expect((await changeLegs(order.orderId)).map((l) => l.state)).toEqual(["authorised"]);
    for (let i = 1; i < RECONCILE_MAX_ATTEMPTS; i++) expect((await t.gw.orders.reconcile()).raised).toEqual([]);
    const last = await t.gw.orders.reconcile();
    expect(last.raised.length).toBe(1);
    const opId = last.raised[0]!;
    expect((await t.gw.orders.ctx.operations.load(opId))?.kind).toBe("order_change_flight");
    expect((await cli("list")).out[0]).toContain(opId);
    psp.restore();
    expect((await cli("resolve", opId, "--retry", "--by", "agent-7", "--note", "PSP back")).out).toEqual([`${opId} resolved: retry`]);
    expect((await t.gw.orders.reconcile()).finished).toEqual([opId]);
    expect((await changeLegs(order.orderId)).map((l) => [l.state, l.captured])).toEqual([["captured", dueMinor]]);
    // The seller's retry answers the order; nothing is captured twice.
    expect((await t.ndc("OrderChangeRQ", rq)).status).toBe(200);
    expect((await changeLegs(order.orderId)).map((l) => [l.state, l.captured])).toEqual([["captured", dueMinor]]);
  } finally {
    psp.restore();
  }
}, BOOKING_TEST_MS);

test("a cheaper change, the PSP not answering refunds: the change answered made, the refund retried to the last attempt and raised; --retry after the fix refunds once", async () => {
  // In JPY the fee is the bare integer 25: a cheaper day refunds (flight-change-refund.test.ts).
  const b = await bookBrand(t, "CLASSIC", { currency: "JPY" });
  const order = await t.gw.orders.retrieve(b.orderId, sellerOf(t));
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: dayAfter(T0, 46) }));
  const o = q.offers.find((x) => Number(x.due) < 0)!;
  const refundMinor = -Number(o.due);
  const rq = addRQ(order.orderId, o.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [], { correlationId: "fr-refund", trxId: "trx-1" });
  const refunded = async () => (await t.gw.orders.ctx.payments.ledger.legs(order.orderId)).reduce((s, l) => s + l.refunded, 0);
  const psp = down("refund");
  try {
    // Past the commit the flights ARE changed: the seller gets the changed order, no refund in PAYSUM yet.
    const r = await t.ndc("OrderChangeRQ", rq);
    expect(r.status).toBe(200);
    expect(r.body).not.toContain("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>");
    const after = await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" });
    expect(after!.journeys[0]!.flightKeys).not.toEqual(order.journeys[0]!.flightKeys);
    expect(await refunded()).toBe(0);
    for (let i = 1; i < RECONCILE_MAX_ATTEMPTS; i++) expect((await t.gw.orders.reconcile()).raised).toEqual([]);
    const last = await t.gw.orders.reconcile();
    expect(last.raised.length).toBe(1);
    const opId = last.raised[0]!;
    expect((await t.gw.orders.ctx.operations.load(opId))?.kind).toBe("order_change_flight");
    expect((await cli("list")).out[0]).toContain(opId);
    psp.restore();
    expect((await cli("resolve", opId, "--retry", "--by", "agent-7", "--note", "PSP back")).out).toEqual([`${opId} resolved: retry`]);
    expect((await t.gw.orders.reconcile()).finished).toEqual([opId]);
    expect(await refunded()).toBe(refundMinor);
    // The seller's retry answers the order with the refund; nothing is refunded twice.
    const again = await t.ndc("OrderChangeRQ", rq);
    expect(again.status).toBe(200);
    expect(again.body).toContain("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>");
    expect(await refunded()).toBe(refundMinor);
  } finally {
    psp.restore();
  }
}, 60_000);
