import { describe, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { acceptCancelRQ, amountIn, cancelQuoteRQ } from "../servicing/cancel-helpers";
import { all, blocks } from "../shopping/shop-requests";
import { cleanupAfterAll, exitedWithin, footprint, reconciled, refundsOf, startGateway, tempDataDir, type Gateway } from "./support";

/**
 * The cancellation saga (cancel/saga.ts) against the real `serve` process, SIGKILLed at each
 * phase boundary by NDC_ORDERS_CRASH_AT: after its commit write (order cancelled, stock
 * released, operation `committed`), after the PSP refunded (not yet recorded), after its close
 * write. Nothing is taken before the commit, so there is no "absent" half: the order is
 * cancelled with its stock released at every point, and the restarted gateway's reconciler
 * finishes the refund under the same keys; the PSP (an outside system that outlived the kill)
 * has paid back exactly the quoted refund, once; a retry of the commit answers the cancelled
 * order and moves nothing.
 */
const POINTS = [
  { at: "cancel_after_commit", step: "committed" },
  { at: "cancel_after_refund", step: "committed" },
  { at: "cancel_after_close", step: "done" },
] as const;

const cleanup = cleanupAfterAll();

/** Books a cancellable offer (one card leg, one seat) and returns it with its cancel quote. */
async function bookAndQuote(gw: Gateway, tag: string) {
  for (let n = 0; n < 16; n++) {
    const shopped = await shopOffer(gw, { seat: true, n });
    const created = await gw.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `${tag}-${n}`, trxId: "T1" }));
    expect(created.status).toBe(200);
    const orderId = orderIdOf(created.body);
    const q = await gw.ndc("OrderReshopRQ", cancelQuoteRQ(orderId));
    if (q.status !== 200) {
      expect(errorCode(q.body)).toBe("fare_not_cancellable");
      continue;
    }
    const offer = blocks(q.body, "Offer")[0]!;
    return { orderId, quoteId: all(offer, "OfferID")[0]!, refundMinor: Math.round(Number(amountIn(blocks(offer, "TotalPrice")[0]!)) * 100) };
  }
  throw new Error("no cancellable offer");
}

describe("cancellation: the real gateway SIGKILLed at each phase boundary, restarted and reconciled", () => {
  for (const p of POINTS) {
    test(`${p.at}: cancelled with its seat released at once; the refund finished by the reconciler, paid once`, async () => {
      const data = tempDataDir();
      cleanup.push(data.remove);
      let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: p.at });
      cleanup.push(() => gw.kill());
      const { orderId, quoteId, refundMinor } = await bookAndQuote(gw, `CX-${p.at}`);
      expect(refundMinor).toBeGreaterThan(0);

      const sent = await gw.ndcUnchecked("OrderChangeRQ", acceptCancelRQ(orderId, quoteId)).then(
        (r) => `answered ${r.status}`,
        () => "connection dropped",
      );
      expect(sent).toBe("connection dropped");
      expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");

      // The commit write is all or nothing: cancelled, and nothing of the order binds a seat.
      const left = await footprint(data.dir, [orderId]);
      expect(left.orders.get(orderId)).toBe("cancelled");
      expect(left.liveSeats).toEqual([]);
      const cancelOp = left.sagas.find((s) => s.sagaId.startsWith("SGX"))!;
      expect([cancelOp.status, cancelOp.step]).toEqual([p.step === "done" ? "done" : "running", p.step]);
      const before = await refundsOf(data.dir, orderId);
      // Before the close nothing is recorded in the ledger; after the PSP refunded, the PSP has paid.
      expect(before.ledgerRefunded).toBe(p.step === "done" ? refundMinor : 0);
      expect(before.pspRefunded).toBe(p.at === "cancel_after_commit" ? 0 : refundMinor);

      gw = await startGateway(data.dir);
      const f = await reconciled(data.dir);
      expect(f.openSagas).toEqual([]);
      const after = await refundsOf(data.dir, orderId);
      expect(after).toEqual({ ledgerRefunded: refundMinor, pspRefunded: refundMinor, refundEntries: 1 });

      // The seller's retry of the commit: the cancelled order, nothing moved again.
      const retry = await gw.ndc("OrderChangeRQ", acceptCancelRQ(orderId, quoteId, { trxId: "retry" }));
      expect(retry.status).toBe(200);
      expect(retry.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
      expect(await refundsOf(data.dir, orderId)).toEqual(after);
      const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(view.body).toContain("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>");
      await gw.stop();
    }, 60_000);
  }
});
