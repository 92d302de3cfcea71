import { afterAll, beforeAll, expect, test } from "bun:test";
import { PspTimeoutError } from "@ndc/payments";
import { RECONCILE_MAX_ATTEMPTS } from "@ndc/orders";
import type { TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { reconcileFailedCli } from "./reconcile-cli";
import { acceptCancelRQ, bookCancellable, quote } from "./cancel-helpers";

/**
 * Issue 9 item 11: a refund the PSP keeps failing (unreachable) after the cancellation's commit. The seller
 * is answered with the cancelled order; the reconciler retries, and after its last attempt the
 * operation is a reconcile_failed staff item in reconcile_failures, listed and resolved with
 * `ndc-gateway reconcile-failed`, and left alone by the reconciler until resolved.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const cli = (...args: string[]) => reconcileFailedCli(t, ...args);

test("a refund still failing (the PSP unreachable) after the last attempt becomes a staff item; --retry after the fix finishes it; nothing refunded twice", async () => {
  const { orderId } = await bookCancellable(t, "RF1");
  const q = await quote(t, orderId);
  const refundMinor = Math.round(Number(q.refund) * 100);
  // The PSP stops answering refunds (every call times out) until staff get it fixed.
  const psp = t.gw.orders.ctx.payments.psp;
  const refund = psp.refund.bind(psp);
  psp.refund = async () => {
    throw new PspTimeoutError();
  };
  // Restored whatever happens: a failing expectation must not leave the next test a PSP that never refunds.
  try {
    const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId));
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
    expect(r.body).not.toContain("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>");

    for (let i = 1; i < RECONCILE_MAX_ATTEMPTS; i++) {
      const rep = await t.gw.orders.reconcile();
      expect(rep.failed.length).toBe(1);
      expect(rep.raised).toEqual([]);
    }
    expect((await cli("list")).out).toEqual(["no open reconcile_failed items"]);
    const last = await t.gw.orders.reconcile();
    expect(last.raised.length).toBe(1);
    const opId = last.raised[0]!;
    const listed = await cli("list");
    expect(listed.code).toBe(0);
    expect(listed.out.length).toBe(1);
    expect(listed.out[0]).toContain(opId);
    expect(listed.out[0]).toContain(`order ${orderId}`);
    expect(listed.out[0]).toContain(`${RECONCILE_MAX_ATTEMPTS} attempts`);
    // Raised: the reconciler leaves it alone.
    expect((await t.gw.orders.reconcile()).failed).toEqual([]);

    // Who resolved it is required (a usage error: exit code 2 through runCli).
    await expect(cli("resolve", opId, "--retry")).rejects.toThrow("--by NAME");
    // Staff fix the PSP side, then ask for a retry.
    psp.refund = refund;
    expect((await cli("resolve", opId, "--retry", "--by", "agent-7", "--note", "PSP ticket 42")).out).toEqual([`${opId} resolved: retry`]);
    expect((await cli("list")).out).toEqual(["no open reconcile_failed items"]);
    const done = await t.gw.orders.reconcile();
    expect(done.finished).toEqual([opId]);
    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(refundMinor);
    expect((await t.gw.orders.reconcile()).finished).toEqual([]);
    // Resolving again is refused: nothing open under that id.
    await expect(cli("resolve", opId, "--close", "--by", "agent-7")).rejects.toThrow(`No open reconcile_failed item ${opId}`);
  } finally {
    psp.refund = refund;
  }
});

test("--close: settled outside the gateway; the operation is closed (resolved_by_staff) and never retried", async () => {
  const { orderId } = await bookCancellable(t, "RF2");
  const q = await quote(t, orderId);
  const psp = t.gw.orders.ctx.payments.psp;
  const refund = psp.refund.bind(psp);
  psp.refund = async () => {
    throw new PspTimeoutError();
  };
  try {
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId))).status).toBe(200);
    let raised: string[] = [];
    for (let i = 0; i < RECONCILE_MAX_ATTEMPTS; i++) raised = (await t.gw.orders.reconcile()).raised;
    expect(raised.length).toBe(1);
    const opId = raised[0]!;
    expect((await cli("resolve", opId, "--close", "--by", "agent-9", "--note", "refunded by bank transfer")).out).toEqual([`${opId} resolved: closed`]);
    const op = await t.gw.orders.ctx.operations.load(opId);
    expect([op?.status, op?.errorCode]).toEqual(["compensated", "resolved_by_staff"]);
    const rep = await t.gw.orders.reconcile();
    expect([rep.finished, rep.failed]).toEqual([[], []]);
    expect((await cli("list")).out).toEqual(["no open reconcile_failed items"]);
  } finally {
    psp.refund = refund;
  }
});
