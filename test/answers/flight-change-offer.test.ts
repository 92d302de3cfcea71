import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { all, blocks } from "../orders-http/order-list-helpers";
import { addRQ } from "../servicing/add-helpers";
import { bookCancellable } from "../servicing/cancel-helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "../servicing/flight-change-helpers";

/**
 * Issue 20 item 7 over HTTP (answers XSD-checked by t.ndc): a flight-change offer (OrderReshopRS
 * ReshopOffers/Offer) states what it sells as an AddedOfferItem: one Service per passenger on the
 * new PaxJourney, whose flights are in the answer's DataLists; ReshopPrice/PriceDifferential
 * with the new fare (NewPrice: base, taxes, total), the replaced direction as paid (OldPrice) and
 * what moves (DiffPrice: due to or by the airline, the change fee as Fee naming ChangeFees'
 * PenaltyID). OrderChangeRQ takes the offer by that item's id; an id the offer does not carry is
 * refused with offer_item_not_found.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const minor = (s: string | undefined) => Math.round(Number(s) * 100);
const amountOf = (xml: string, name: string) => new RegExp(`<cns:${name} CurCode="EUR">([^<]+)<`).exec(xml)?.[1];

test("each flight-change offer carries an AddedOfferItem with its new flights, prices and the difference; OrderChangeRQ takes it by that id", async () => {
  const { order } = await bookCancellable(t, "FCO-1", { brand: "CLASSIC" });
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: "2027-01-13" }));
  const body = q.body;
  const journeys = new Map(blocks(body, "PaxJourney").map((j) => [all(j, "PaxJourneyID")[0]!, all(j, "PaxSegmentRefID")]));
  const segments = new Map(blocks(body, "DatedMarketingSegment").map((s) => [all(s, "DatedMarketingSegmentId")[0]!.replace(/-MKT$/, ""), all(s, "MarketingCarrierFlightNumberText")[0]!]));
  const offers = blocks(body, "Offer");
  expect(offers.length).toBeGreaterThan(0);
  for (const [n, offer] of offers.entries()) {
    const added = blocks(offer, "AddedOfferItem")[0]!;
    expect(all(added, "OfferItemID")).toEqual([`FC${n + 1}-NEW`]);
    expect(all(added, "PenaltyRefID")).toEqual([q.penaltyId]);
    // One service per passenger on the new journey, whose flights the DataLists define and the Desc names.
    const services = blocks(added, "Service");
    expect(services.map((s) => all(s, "PaxRefID")[0])).toEqual(order.passengers.map((p) => p.paxId));
    const journeyId = all(services[0]!, "PaxJourneyRefID")[0]!;
    const flights = journeys.get(journeyId)!;
    expect(flights.length).toBeGreaterThan(0);
    const desc = all(offer, "DescText").find((d) => d.startsWith("Flights:"))!;
    for (const seg of flights) expect(desc).toContain(`XB${segments.get(seg)}`);
    // The prices: new fare = base + taxes; old + due = new + fee; what moves = |due|, its direction by the type code.
    const diff = blocks(added, "PriceDifferential")[0]!;
    const fresh = blocks(diff, "NewPrice")[0]!;
    const taxes = blocks(fresh, "Tax").reduce((s, x) => s + minor(amountOf(x, "Amount")), 0);
    expect(taxes).toBeGreaterThan(0);
    expect(minor(amountOf(fresh, "BaseAmount")) + taxes).toBe(minor(amountOf(fresh, "TotalAmount")));
    const due = minor(q.offers[n]!.due);
    const fee = minor(amountOf(blocks(diff, "Fee")[0]!, "Amount"));
    expect(fee).toBe(minor(q.fee));
    expect(all(blocks(diff, "Fee")[0]!, "DesigText")).toEqual([q.penaltyId]);
    expect(minor(amountOf(blocks(diff, "OldPrice")[0]!, "TotalAmount")) + due).toBe(minor(amountOf(fresh, "TotalAmount")) + fee);
    const type = all(diff, "DifferentialTypeCode")[0]!;
    expect(type).toBe(due > 0 ? "AddCol" : due < 0 ? "Refund" : "EvenExchange");
    const moved = blocks(diff, "DiffPrice")[0]!;
    expect(minor(amountOf(moved, due > 0 ? "DueToAirlineAmount" : "DueByAirlineAmount"))).toBe(Math.abs(due));
  }

  // Taken by the added item's id; an id the offer does not carry is refused.
  const o = q.offers[0]!;
  const pay = (id: string, trxId: string) => addRQ(order.orderId, o.quoteId, [{ offerItemId: id, paxId: "PAX1" }], minor(o.due) > 0 ? [{ card: "tok_approve_visa", minor: minor(o.due) }] : [], { correlationId: `fco-${trxId}`, trxId });
  const stray = await t.ndc("OrderChangeRQ", pay("OFR-NOT-THIS-ONE", "t0"));
  expect(stray.status).toBe(400);
  expect(errorCode(stray.body)).toBe("offer_item_not_found");
  const r = await t.ndc("OrderChangeRQ", pay("FC1-NEW", "t1"));
  expect(r.status).toBe(200);
  const after = (await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!;
  const firstOffer = blocks(offers[0]!, "AddedOfferItem")[0]!;
  const newJourney = journeys.get(all(blocks(firstOffer, "Service")[0]!, "PaxJourneyRefID")[0]!)!;
  expect(after.journeys[0]!.flightKeys.map((k) => `SEG-${k}`)).toEqual(newJourney);
}, 60_000);
