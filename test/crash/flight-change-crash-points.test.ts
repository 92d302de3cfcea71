import { describe, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { addRQ } from "../servicing/add-helpers";
import { flightQuote, reshopFlightRQ, reshopFlightsRQ } from "../servicing/flight-change-helpers";
import { BACK_DATE, bookBrand, OUT_DATE } from "../servicing/helpers";
import { cleanupAfterAll, errorLines, exitedWithin, footprint, reconciled, startGateway, tempDataDir, type Footprint, type Gateway } from "./support";

/**
 * Accepting a flight-change quote (servicing/flight/saga.ts) against the real `serve` process,
 * with the crash harness of order-add-crash-points.test.ts: NDC_ORDERS_CRASH_AT kills the gateway
 * with SIGKILL at each boundary of the change's phases (its capture and close are the add saga's,
 * hence the `add_` points). Restarted, the reconciler finishes the change past its commit point
 * (flights replaced, leg captured) and compensates it short of it (flights kept, leg voided or
 * declined, nothing held on the new flight).
 */
const POINTS = [
  { at: "flight_after_open", complete: false, step: "open" },
  { at: "flight_after_authorise", complete: false, step: "open" },
  { at: "flight_after_commit", complete: true, step: "committed" },
  { at: "add_after_capture", complete: true, step: "committed" },
  { at: "add_after_close", complete: true, step: "done" },
] as const;

const cleanup = cleanupAfterAll();

const flightOps = (f: Footprint) => f.sagas.filter((s) => s.sagaId.startsWith("SGF"));
const changeLegs = (f: Footprint, saleLegs: readonly string[]) => f.legs.filter((l) => !saleLegs.includes(l.legId));
const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe("OrderChangeRQ accepting a flight change: the real gateway SIGKILLed at each phase boundary, restarted and reconciled", () => {
  for (const p of POINTS) {
    test(`${p.at}: reconciled ${p.complete ? "to the flights changed" : "to nothing taken"}`, async () => {
      const data = tempDataDir();
      cleanup.push(data.remove);
      let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: p.at });
      cleanup.push(() => gw.kill());
      // An order whose outbound fare allows a change (the n-th offer shopped; SAVER and LIGHT do not).
      let booked: { orderId: string; created: string; quote: string } | undefined;
      for (let n = 0; n < 16 && !booked; n++) {
        const shopped = await shopOffer(gw, { seat: true, n });
        const created = await gw.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `FC-${p.at}-${n}`, trxId: "T1" }));
        expect(created.status).toBe(200);
        const orderId = orderIdOf(created.body);
        // The order's outbound as OrderViewRS states it: its ends, its day, its flight items.
        const seg = blocks(created.body, "DatedMarketingSegment")[0]!;
        const dep = blocks(seg, "Dep")[0]!;
        const [from, to] = [all(dep, "IATA_LocationCode")[0]!, all(blocks(seg, "Arrival")[0]!, "IATA_LocationCode")[0]!];
        const date = all(dep, "AircraftScheduledDateTime")[0]!.slice(0, 10);
        const itemIds = blocks(created.body, "OrderItem").filter((i) => !i.includes("SeatOnLeg")).map((i) => all(i, "OrderItemID")[0]!);
        const quote = reshopFlightRQ(orderId, itemIds, { from, to, date: nextDay(date) });
        if ((await gw.ndc("OrderReshopRQ", quote)).status === 200) booked = { orderId, created: created.body, quote };
      }
      const { orderId, quote } = booked!;
      const saleLegs = (await footprint(data.dir, [orderId])).legs.map((l) => l.legId);
      const q = await flightQuote(gw, quote);
      const offer = q.offers.find((o) => Number(o.due) > 0)!;
      const dueMinor = Math.round(Number(offer.due) * 100);
      const rq = addRQ(orderId, offer.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: dueMinor }], { correlationId: `FCX-${p.at}`, trxId: "trx-1" });
      const before = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      const oldSegments = all(before.body, "PaxSegmentID");

      const sent = await gw.ndcUnchecked("OrderChangeRQ", rq).then(
        (r) => `answered ${r.status}`,
        () => "connection dropped",
      );
      expect(sent).toBe("connection dropped");
      expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");
      const left = await footprint(data.dir, [orderId]);
      expect(flightOps(left).map((s) => [s.status, s.step])).toEqual([[p.step === "done" ? "done" : "running", p.step]]);

      gw = await startGateway(data.dir);
      const f = await reconciled(data.dir);
      expect(f.openSagas).toEqual([]);
      expect(f.pspAuthorised).toEqual([]);
      const mine = await footprint(data.dir, [orderId]);
      const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(view.status).toBe(200);
      // One seat claim per flight the order is on, sold (the new flight's when changed, the old one's when not).
      expect(mine.liveSeats.map((s) => s.status)).toEqual(["sold"]);
      if (p.complete) {
        expect(flightOps(mine).map((s) => s.status)).toEqual(["done"]);
        expect(changeLegs(mine, saleLegs).map((l) => [l.kind, l.state])).toEqual([["card", "captured"]]);
        expect(all(view.body, "PaxSegmentID")).not.toEqual(oldSegments);
        const retry = await gw.ndc("OrderChangeRQ", rq);
        expect(retry.status).toBe(200);
        expect(await footprint(data.dir, [orderId])).toEqual(mine);
      } else {
        expect(flightOps(mine).map((s) => [s.status, s.errorCode])).toEqual([["compensated", "reconciled"]]);
        expect(changeLegs(mine, saleLegs).every((l) => l.state === "voided" || l.state === "declined")).toBe(true);
        expect(all(view.body, "PaxSegmentID")).toEqual(oldSegments);
        const late = await gw.ndc("OrderChangeRQ", rq);
        expect([late.status, errorCode(late.body)]).toEqual([409, "payment_leg_voided"]);
      }
      expect(errorLines(gw)).toEqual([]);
    }, 60_000);
  }
});

describe("both directions of a return changed together: the real gateway SIGKILLed past the commit, restarted and reconciled", () => {
  test("flight_after_commit: both directions changed, one leg captured, a retry writes nothing", async () => {
    const data = tempDataDir();
    cleanup.push(data.remove);
    let gw: Gateway = await startGateway(data.dir, { NDC_ORDERS_CRASH_AT: "flight_after_commit" });
    cleanup.push(() => gw.kill());
    const { orderId } = await bookBrand(gw, "CLASSIC", { back: true });
    const saleLegs = (await footprint(data.dir, [orderId])).legs.map((l) => l.legId);
    const before = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    const itemIds = blocks(before.body, "OrderItem").map((i) => all(i, "OrderItemID")[0]!);
    const oldSegments = all(before.body, "PaxSegmentID");
    expect(oldSegments.length).toBe(2);
    const q = await flightQuote(gw, reshopFlightsRQ(orderId, itemIds, [{ from: "LHR", to: "CDG", date: nextDay(OUT_DATE) }, { from: "CDG", to: "LHR", date: nextDay(BACK_DATE) }]));
    const offer = q.offers[0]!;
    const rq = addRQ(orderId, offer.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: Math.round(Number(offer.due) * 100) }], { correlationId: "FCX-both", trxId: "trx-1" });
    const sent = await gw.ndcUnchecked("OrderChangeRQ", rq).then(
      (r) => `answered ${r.status}`,
      () => "connection dropped",
    );
    expect(sent).toBe("connection dropped");
    expect(await exitedWithin(gw, 10_000)).toBe("SIGKILL");

    gw = await startGateway(data.dir);
    const f = await reconciled(data.dir);
    expect(f.openSagas).toEqual([]);
    expect(f.pspAuthorised).toEqual([]);
    const mine = await footprint(data.dir, [orderId]);
    expect(flightOps(mine).map((s) => s.status)).toEqual(["done"]);
    expect(changeLegs(mine, saleLegs).map((l) => [l.kind, l.state])).toEqual([["card", "captured"]]);
    const view = await gw.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    const segments = all(view.body, "PaxSegmentID");
    expect(segments.length).toBe(2);
    for (const s of segments) expect(oldSegments).not.toContain(s);
    expect((await gw.ndc("OrderChangeRQ", rq)).status).toBe(200);
    expect(await footprint(data.dir, [orderId])).toEqual(mine);
    expect(errorLines(gw)).toEqual([]);
  }, 60_000);
});
