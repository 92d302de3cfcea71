import { describe, expect, test } from "bun:test";
import { dayAfter, T0 } from "../support/dates";
import { errorCode } from "../support/gateway";
import { orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { addRQ } from "../servicing/add-helpers";
import { flightQuote, reshopFlightRQ } from "../servicing/flight-change-helpers";
import { bookBrand } from "../servicing/helpers";
import { cleanupAfterAll, errorLines, exitedWithin, footprint, reconciled, refundsOf, startGateway, tempDataDir, type Gateway } from "./support";

/**
 * Accepting a flight change that costs LESS than the fare paid (servicing/flight/saga.ts and
 * refund.ts) against the real `serve` process, SIGKILLed by NDC_ORDERS_CRASH_AT at each boundary
 * of its phases: after the open write (the operation row), after the commit write (flights
 * replaced, refund planned), after the PSP paid back (not yet recorded), after the close write.
 * Restarted, the reconciler compensates it short of the commit (flights kept, nothing refunded)
 * and finishes it past it under the same keys: the PSP (an outside system that outlived the kill)
 * has paid back exactly the quoted difference, once, and the ledger records it once. The dearer
 * change's points are test/crash/flight-change-crash-points.test.ts.
 */
const POINTS = [
  { at: "flight_after_open", complete: false, step: "open" },
  { at: "flight_after_commit", complete: true, step: "committed" },
  { at: "flight_after_refund", complete: true, step: "committed" },
  { at: "flight_after_close", complete: true, step: "done" },
] as const;

const cleanup = cleanupAfterAll();

/**
 * The cheaper day: 46 days after the gateway's clock starts (startGateway starts it at T0), five
 * before the booked day. Fares and the fee band depend on the days between the clock and the
 * flight, so a day read from the calendar would change band as the real date moves.
 */
const CHEAPER_DAY = dayAfter(T0, 46);

/** A CLASSIC order in JPY (the band's fee is 25 JPY, so a cheaper day refunds) and its cheaper change quoted. */
async function bookAndQuote(gw: Gateway, tag: string) {
  const { orderId } = await bookBrand(gw, "CLASSIC", { currency: "JPY" });
  const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  const seg = blocks(view.body, "DatedMarketingSegment")[0]!;
  const [from, to] = [all(blocks(seg, "Dep")[0]!, "IATA_LocationCode")[0]!, all(blocks(seg, "Arrival")[0]!, "IATA_LocationCode")[0]!];
  const itemIds = blocks(view.body, "OrderItem").map((i) => all(i, "OrderItemID")[0]!);
  const q = await flightQuote(gw, reshopFlightRQ(orderId, itemIds, { from, to, date: CHEAPER_DAY }));
  const offer = q.offers.find((o) => Number(o.due) < 0)!;
  const rq = addRQ(orderId, offer.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [], { correlationId: `FCR-${tag}`, trxId: "trx-1" });
  return { orderId, rq, refundMinor: -Number(offer.due), segments: all(view.body, "PaxSegmentID") };
}

describe("OrderChangeRQ accepting a cheaper flight change: the real gateway SIGKILLed at each phase boundary, restarted and reconciled", () => {
  for (const p of POINTS) {
    test(`${p.at}: reconciled ${p.complete ? "to the flights changed and the difference refunded once" : "to nothing changed or refunded"}`, async () => {
      const data = tempDataDir();
      cleanup.push(data.remove);
      let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: p.at });
      cleanup.push(() => gw.kill());
      const { orderId, rq, refundMinor, segments } = await bookAndQuote(gw, p.at);
      expect(refundMinor).toBeGreaterThan(0);

      const sent = await gw.ndcUnchecked("OrderChangeRQ", rq).then(
        (r) => `answered ${r.status}`,
        () => "connection dropped",
      );
      expect(sent).toBe("connection dropped");
      expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");
      const left = await footprint(data.dir, [orderId]);
      expect(left.sagas.filter((s) => s.sagaId.startsWith("SGF")).map((s) => [s.status, s.step])).toEqual([[p.step === "done" ? "done" : "running", p.step]]);
      const before = await refundsOf(data.dir, orderId);
      // The ledger records the refund in the close write only; the PSP has paid once it was asked.
      expect(before.ledgerRefunded).toBe(p.step === "done" ? refundMinor : 0);
      expect(before.pspRefunded).toBe(p.at === "flight_after_refund" || p.at === "flight_after_close" ? refundMinor : 0);

      gw = await startGateway(data.dir);
      const f = await reconciled(data.dir);
      expect(f.openSagas).toEqual([]);
      const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(view.status).toBe(200);
      const ops = (await footprint(data.dir, [orderId])).sagas.filter((s) => s.sagaId.startsWith("SGF"));
      if (p.complete) {
        expect(ops.map((s) => s.status)).toEqual(["done"]);
        expect(await refundsOf(data.dir, orderId)).toEqual({ ledgerRefunded: refundMinor, pspRefunded: refundMinor, refundEntries: 1 });
        expect(all(view.body, "PaxSegmentID")).not.toEqual(segments);
        expect(view.body).toContain("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>");
        // The seller's retry answers the order; nothing moves again.
        const retry = await gw.ndc("OrderChangeRQ", rq);
        expect(retry.status).toBe(200);
        expect(await refundsOf(data.dir, orderId)).toEqual({ ledgerRefunded: refundMinor, pspRefunded: refundMinor, refundEntries: 1 });
      } else {
        expect(ops.map((s) => [s.status, s.errorCode])).toEqual([["compensated", "reconciled"]]);
        expect(await refundsOf(data.dir, orderId)).toEqual({ ledgerRefunded: 0, pspRefunded: 0, refundEntries: 0 });
        expect(all(view.body, "PaxSegmentID")).toEqual(segments);
        const late = await gw.ndc("OrderChangeRQ", rq);
        expect([late.status, errorCode(late.body)]).toEqual([409, "payment_leg_voided"]);
      }
      expect(errorLines(gw)).toEqual([]);
    }, 60_000);
  }
});
