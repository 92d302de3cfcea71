import { describe, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { addRQ, seatsFor } from "../servicing/add-helpers";
import { cleanupAfterAll, errorLines, exitedWithin, footprint, reconciled, startGateway, tempDataDir, type Footprint, type Gateway } from "./support";

/**
 * The post-sale change saga (ORDRE2, servicing/add) against the real `serve` process, with the
 * crash harness of OrderCreate: NDC_ORDERS_CRASH_AT kills the gateway with SIGKILL at each
 * boundary of the change's phases while it buys a seat on a booked order with a card. Restarted,
 * the reconciler finishes the change past its commit point (seat sold, leg captured, nothing at
 * the PSP left authorised) and compensates it short of it (seat free for every channel, leg
 * voided or declined). A retry with the same ids is then the change (past the commit) or refused
 * as a late charge under a voided reference (short of it); a new TrxID buys the seat.
 */
const POINTS = [
  { at: "add_after_open", complete: false, step: "open", seat: "held", legs: ["authorising"], undone: ["declined"] },
  { at: "add_after_authorise", complete: false, step: "open", seat: "held", legs: ["authorising"], undone: ["voided"] },
  { at: "add_after_commit", complete: true, step: "committed", seat: "sold", legs: ["authorised"], undone: [] },
  { at: "add_after_capture", complete: true, step: "committed", seat: "sold", legs: ["authorised"], undone: [] },
  { at: "add_after_close", complete: true, step: "done", seat: "sold", legs: ["captured"], undone: [] },
] as const;

const cleanup = cleanupAfterAll();

/** The change's operation (SGA…) and legs (everything but the sale's). */
const addOps = (f: Footprint) => f.sagas.filter((s) => s.sagaId.startsWith("SGA"));
const addLegs = (f: Footprint, saleLegs: readonly string[]) => f.legs.filter((l) => !saleLegs.includes(l.legId));

describe("OrderChangeRQ buying a seat: the real gateway SIGKILLed at each phase boundary, restarted and reconciled", () => {
  for (const p of POINTS) {
    test(`${p.at}: reconciled ${p.complete ? "to the change made" : "to nothing taken"}; the retry ${p.complete ? "is the same change" : "is refused, a new TrxID buys"}`, async () => {
      const data = tempDataDir();
      cleanup.push(data.remove);
      let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: p.at });
      cleanup.push(() => gw.kill());
      const shopped = await shopOffer(gw);
      const created = await gw.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `ADD-${p.at}`, trxId: "T1" }));
      expect(created.status).toBe(200);
      const orderId = orderIdOf(created.body);
      const saleLegs = (await footprint(data.dir, [orderId])).legs.map((l) => l.legId);
      const { offerId, seats } = await seatsFor(gw, orderId);
      const [seatId, item] = [...seats].find(([, i]) => i.unitMinor > 0)!;
      const buy = (trxId: string) => addRQ(orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { correlationId: `SEAT-${p.at}`, trxId });
      const rq = buy("trx-1");

      const sent = await gw.ndcUnchecked("OrderChangeRQ", rq).then(
        (r) => `answered ${r.status}`,
        () => "connection dropped",
      );
      expect(sent).toBe("connection dropped");
      expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");

      // The kill came where asked: the change's recovery point, its seat and its leg.
      const left = await footprint(data.dir, [orderId]);
      expect(addOps(left).map((s) => [s.status, s.step])).toEqual([[p.step === "done" ? "done" : "running", p.step]]);
      expect(left.liveSeats.map((s) => [s.seatId, s.status])).toEqual([[seatId, p.seat]]);
      expect(addLegs(left, saleLegs).map((l) => l.state)).toEqual([...p.legs]);

      gw = await startGateway(data.dir);
      const f = await reconciled(data.dir);
      expect(f.openSagas).toEqual([]);
      expect(f.pspAuthorised).toEqual([]);
      const mine = await footprint(data.dir, [orderId]);
      const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(view.status).toBe(200);
      expect(view.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
      if (p.complete) {
        expect(addOps(mine).map((s) => s.status)).toEqual(["done"]);
        expect(mine.liveSeats.map((s) => [s.seatId, s.status])).toEqual([[seatId, "sold"]]);
        expect(addLegs(mine, saleLegs).map((l) => [l.kind, l.state])).toEqual([["card", "captured"]]);
        expect(blocks(view.body, "SeatOnLeg")).toHaveLength(1);
        // The retry is the change already made: answered, nothing taken or charged again.
        const retry = await gw.ndc("OrderChangeRQ", rq);
        expect(retry.status).toBe(200);
        expect(await footprint(data.dir, [orderId])).toEqual(mine);
      } else {
        expect(addOps(mine).map((s) => [s.status, s.errorCode])).toEqual([["compensated", "reconciled"]]);
        expect(mine.liveSeats).toEqual([]);
        expect(addLegs(mine, saleLegs).map((l) => l.state)).toEqual([...p.undone]);
        expect(blocks(view.body, "SeatOnLeg")).toHaveLength(0);
        // A late charge under the voided reference is refused; a new TrxID is a new change.
        const late = await gw.ndc("OrderChangeRQ", rq);
        expect([late.status, errorCode(late.body)]).toEqual([409, "payment_leg_voided"]);
        const fresh = await gw.ndc("OrderChangeRQ", buy("trx-2"));
        expect(fresh.status).toBe(200);
        const after = await footprint(data.dir, [orderId]);
        expect(after.liveSeats.map((s) => [s.seatId, s.status])).toEqual([[seatId, "sold"]]);
        expect(addLegs(after, saleLegs).filter((l) => l.state === "captured")).toHaveLength(1);
        expect(after.pspAuthorised).toEqual([]);
      }
      // PAYSUM: the sale's leg and the change's captured; a compensated change's authorised leg shown voided.
      const final = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      const statuses = all(blocks(final.body, "PaymentFunctions").join(""), "PaymentStatusCode");
      expect(statuses.filter((s) => s === "CAPTURED")).toHaveLength(2);
      expect(statuses.filter((s) => s !== "CAPTURED")).toEqual((p.undone as readonly string[]).includes("voided") ? ["VOIDED"] : []);
      expect(errorLines(gw)).toEqual([]);
    }, 60_000);
  }
});
