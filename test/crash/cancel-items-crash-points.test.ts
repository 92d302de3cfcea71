import { describe, expect, test } from "bun:test";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { acceptCancelRQ, amountIn, cancelItemsRQ } from "../servicing/cancel-helpers";
import { all, blocks } from "../shopping/shop-requests";
import { cleanupAfterAll, exitedWithin, footprint, reconciled, refundsOf, startGateway, tempDataDir, type Gateway } from "./support";

/**
 * An items cancellation (cancel/items-saga.ts) against the real `serve` process, SIGKILLed at
 * each phase boundary it shares with the whole order's cancellation: after its commit write,
 * after the PSP refunded, after its close write. The cancelled seat was booked in one hold with
 * another passenger's seat: at every point the commit write is whole (the seat free, the other
 * kept sold, the order booked without the item), and the restarted gateway's reconciler pays
 * the quoted refund once, at the PSP and in the ledger; a retry of the commit moves nothing.
 */
const POINTS = [
  { at: "cancel_after_commit", step: "committed" },
  { at: "cancel_after_refund", step: "committed" },
  { at: "cancel_after_close", step: "done" },
] as const;

const cleanup = cleanupAfterAll();

/** Books two passengers with a seat each (one hold), and quotes the cancellation of the dearer seat alone. */
async function bookAndQuote(gw: Gateway, tag: string) {
  const pax = [{ id: "PAX1", surname: "TRAVELLERA" }, { id: "PAX2", surname: "TRAVELLERB" }];
  for (let n = 0; n < 16; n++) {
    const shopped = await shopOffer(gw, { pax: 2, seat: true, n });
    const created = await gw.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `${tag}-${n}`, trxId: "T1" }));
    expect(created.status).toBe(200);
    const orderId = orderIdOf(created.body);
    const seats = blocks(created.body, "OrderItem")
      .filter((b) => b.includes("SeatOnLeg"))
      .map((b) => ({ id: all(b, "OrderItemID")[0]!, minor: Math.round(Number(amountIn(b) ?? "0") * 100), seatId: `${all(b, "RowNumber")[0]}${all(b, "ColumnID")[0]}` }))
      .sort((a, b) => b.minor - a.minor);
    if (seats.length !== 2 || seats[0]!.minor === 0) continue;
    const q = await gw.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [seats[0]!.id]));
    if (q.status !== 200) continue; // a fare that is not cancellable: the next offer
    const offer = blocks(q.body, "Offer")[0]!;
    return { orderId, gone: seats[0]!, kept: seats[1]!, quoteId: all(offer, "OfferID")[0]!, refundMinor: Math.round(Number(amountIn(blocks(offer, "TotalPrice")[0]!)) * 100) };
  }
  throw new Error("no cancellable offer with a priced seat");
}

describe("items cancellation: the real gateway SIGKILLed at each phase boundary, restarted and reconciled", () => {
  for (const p of POINTS) {
    test(`${p.at}: the seat freed and the other kept at once; the refund finished by the reconciler, paid once`, async () => {
      const data = tempDataDir();
      cleanup.push(data.remove);
      let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: p.at });
      cleanup.push(() => gw.kill());
      const { orderId, gone, kept, quoteId, refundMinor } = await bookAndQuote(gw, `CXI-${p.at}`);
      expect(refundMinor).toBe(gone.minor);

      const sent = await gw.ndcUnchecked("OrderChangeRQ", acceptCancelRQ(orderId, quoteId)).then(
        (r) => `answered ${r.status}`,
        () => "connection dropped",
      );
      expect(sent).toBe("connection dropped");
      expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");

      const left = await footprint(data.dir, [orderId]);
      expect(left.orders.get(orderId)).toBe("booked");
      expect(left.liveSeats.map((s) => [s.seatId, s.status])).toEqual([[kept.seatId, "sold"]]);
      const op = left.sagas.find((s) => s.sagaId.startsWith("SGI"))!;
      expect([op.status, op.step]).toEqual([p.step === "done" ? "done" : "running", p.step]);
      const before = await refundsOf(data.dir, orderId);
      expect(before.ledgerRefunded).toBe(p.step === "done" ? refundMinor : 0);
      expect(before.pspRefunded).toBe(p.at === "cancel_after_commit" ? 0 : refundMinor);

      gw = await startGateway(data.dir);
      const f = await reconciled(data.dir);
      expect(f.openSagas).toEqual([]);
      const after = await refundsOf(data.dir, orderId);
      expect(after).toEqual({ ledgerRefunded: refundMinor, pspRefunded: refundMinor, refundEntries: 1 });

      const retry = await gw.ndc("OrderChangeRQ", acceptCancelRQ(orderId, quoteId, { trxId: "retry" }));
      expect(retry.status).toBe(200);
      expect(retry.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
      expect(await refundsOf(data.dir, orderId)).toEqual(after);
      const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(all(view.body, "OrderItemID")).not.toContain(gone.id);
      expect(view.body).toContain("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>");
      await gw.stop();
    }, 90_000);
  }
});
