import { describe, expect, test } from "bun:test";
import { decimal, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { paymentRetryRQ } from "../orders-http/order-list-helpers";
import { all, blocks } from "../shopping/shop-requests";
import { cleanupAfterAll, errorLines, exitedWithin, footprint, reconciled, startGateway, tempDataDir, type Gateway } from "./support";

/**
 * The payment retry (OrderChangeRQ paying a held order, packages/orders/src/payment/retry.ts) in
 * its atomic phases, against the real `serve` process: NDC_ORDERS_CRASH_AT makes the gateway
 * SIGKILL itself at one phase boundary of the attempt (a held order with a seat, a card leg).
 * Restarted with its reconciler, the attempt is complete (booked, seat sold, leg captured) past
 * the commit point and undone short of it (still held with its seat, the leg voided or
 * declined, nothing authorised at the PSP). The seller then sends the same OrderChangeRQ: past
 * the commit it is answered with the same booked order, short of it the attempt runs afresh
 * under new payment keys and books; the card is captured exactly once either way.
 */
const POINTS = [
  { at: "after_holds", complete: false, step: "open", legs: ["authorising"], undone: ["declined"] },
  { at: "after_authorise", complete: false, step: "open", legs: ["authorising"], undone: ["voided"] },
  { at: "after_commit", complete: true, step: "committed", legs: ["authorised"], undone: [] },
  { at: "before_capture", complete: true, step: "committed", legs: ["authorised"], undone: [] },
  { at: "after_capture", complete: true, step: "committed", legs: ["authorised"], undone: [] },
  { at: "after_close", complete: true, step: "done", legs: ["captured"], undone: [] },
] as const;

const cleanup = cleanupAfterAll();


describe("OrderChangeRQ paying a held order: the real gateway SIGKILLed at each phase, restarted, reconciled and asked again", () => {
  for (const p of POINTS) {
    test(`${p.at}: reconciled ${p.complete ? "complete" : "to nothing"}; the same request then books once`, async () => {
      const data = tempDataDir();
      cleanup.push(data.remove);
      let gw: Gateway = await startGateway(data.dir);
      cleanup.push(() => gw.kill());
      const shopped = await shopOffer(gw, { seat: true });
      const held = await gw.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: `HELD-${p.at}`, trxId: "T" }));
      expect(held.body).toContain("<cns:StatusCode>HELD</cns:StatusCode>");
      const orderId = orderIdOf(held.body);
      await gw.stop();

      gw = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: p.at, ORDERS_BACKGROUND_MS: "0" });
      const rq = paymentRetryRQ(orderId, decimal(shopped.totalMinor), "tok_approve_visa", { correlationId: `PAY-${p.at}`, trxId: "T1" });
      const sent = await gw.ndcUnchecked("OrderChangeRQ", rq).then(
        (r) => `answered ${r.status}`,
        () => "connection dropped",
      );
      expect(sent).toBe("connection dropped");
      expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");

      // The kill came where it was asked to: the attempt's recovery point and what it had taken.
      const left = await footprint(data.dir, [orderId]);
      const attempt = () => left.sagas.filter((s) => s.sagaId.startsWith("SGR"));
      expect(attempt().map((s) => [s.status, s.step])).toEqual([[p.step === "done" ? "done" : "running", p.step]]);
      expect(left.legs.map((l) => l.state)).toEqual([...p.legs]);
      expect(left.orders.get(orderId)).toBe(p.complete ? "booked" : "held_unpaid");
      expect(left.liveSeats.map((s) => [s.holder, s.status])).toEqual([[orderId, p.complete ? "sold" : "held"]]);

      gw = await startGateway(data.dir);
      const f = await reconciled(data.dir);
      expect(f.openSagas).toEqual([]);
      expect(f.pspAuthorised).toEqual([]);
      const sagaOf = (x: typeof f) => x.sagas.filter((s) => s.sagaId.startsWith("SGR"));
      if (p.complete) {
        expect(sagaOf(f).map((s) => s.status)).toEqual(["done"]);
        expect(f.orders.get(orderId)).toBe("booked");
        expect(f.liveSeats.map((s) => [s.holder, s.status])).toEqual([[orderId, "sold"]]);
        expect(f.legs.map((l) => l.state)).toEqual(["captured"]);
      } else {
        expect(sagaOf(f).map((s) => [s.status, s.errorCode])).toEqual([["compensated", "reconciled"]]);
        expect(f.orders.get(orderId)).toBe("held_unpaid");
        expect(f.liveSeats.map((s) => [s.holder, s.status])).toEqual([[orderId, "held"]]);
        expect(f.legs.map((l) => l.state)).toEqual([...p.undone]);
      }

      // The same request again: booked, the card captured exactly once.
      const again = await gw.ndc("OrderChangeRQ", rq);
      expect(again.status).toBe(200);
      expect(again.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
      const after = await footprint(data.dir, [orderId]);
      expect(sagaOf(after).map((s) => s.status)).toEqual(["done"]);
      expect([...after.orders]).toEqual([[orderId, "booked"]]);
      expect(after.liveSeats.map((s) => [s.holder, s.status])).toEqual([[orderId, "sold"]]);
      expect(after.legs.filter((l) => l.state === "captured")).toHaveLength(1);
      expect(after.legs.filter((l) => l.state !== "captured").map((l) => l.state)).toEqual([...p.undone]);
      expect(after.pspAuthorised).toEqual([]);
      const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      // PAYSUM: one leg captured (beside a first run's voided one, which is this order's too).
      expect(blocks(view.body, "PaymentFunctions").flatMap((b) => all(b, "PaymentStatusCode")).filter((c) => c === "CAPTURED")).toEqual(["CAPTURED"]);
      // Asked once more: nothing more taken.
      await gw.ndc("OrderChangeRQ", rq);
      expect(await footprint(data.dir, [orderId])).toEqual(after);
      expect(errorLines(gw)).toEqual([]);
      await gw.stop();
    }, 40_000);
  }
});
