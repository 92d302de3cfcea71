import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { all, book, card, FARE_MINOR, start, type Ctx } from "../orders-http/order-list-helpers";
import { addRQ, reshopExtrasRQ, reshopped, reshopSeatRQ, seatsFor } from "./add-helpers";

/**
 * OrderReshopRQ's ORDRE2 forms over HTTP (spec 4.7): extras by ServiceCriteria, one seat by
 * OriginDestCriteria + PaxList + SeatCriteria, each answered with OrderReshopRS carrying an
 * a-la-carte offer of the order's own that OrderChangeRQ buys. Requests are checked against
 * IATA_OrderReshopRQ.xsd, answers against IATA_OrderReshopRS.xsd (test/support/gateway.ts).
 */
let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

const reshop = (xml: string) => {
  assertSchemaValid(xml);
  return c.t.ndc("OrderReshopRQ", xml);
};
function flightOf(c: Ctx, key: string) {
  const f = c.t.gw.supply.flight(key)!;
  return { from: f.origin, to: f.destination, date: f.date };
}

test("extras reshopped by ServiceCriteria, then bought with OrderChangeRQ by the reshopped offer", async () => {
  const order = await book(c, { tag: "RS1", payment: [card(FARE_MINOR)] });
  const flight = flightOf(c, order.journeys[0]!.flightKeys[0]!);
  const r = await reshop(reshopExtrasRQ(order.orderId, flight, "1B58"));
  expect(r.status).toBe(200);
  expect(r.body).toContain("<IATA_OrderReshopRS");
  expect(all(r.body, "OrderID")).toEqual([order.orderId]);
  expect(all(r.body, "ServiceDefinitionID")).toEqual(["SD-LNGE"]);
  const offer = reshopped(r.body);
  const item = offer.items[0]!;
  const bought = await c.t.ndc("OrderChangeRQ", addRQ(order.orderId, offer.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
  expect(bought.status).toBe(200);
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).items.some((i) => i.offerId === offer.offerId)).toBe(true);
});

test("one seat reshopped for one passenger on one flight, then bought; a taken seat and a second seat are refused", async () => {
  const order = await book(c, { tag: "RS2", payment: [card(FARE_MINOR)] });
  const flight = flightOf(c, order.journeys[0]!.flightKeys[0]!);
  const { seats } = await seatsFor(c.t, order.orderId);
  const [seatId] = [...seats].find(([, i]) => i.unitMinor > 0)!;
  const r = await reshop(reshopSeatRQ(order.orderId, flight, "PAX1", seatId));
  expect(r.status).toBe(200);
  const offer = reshopped(r.body);
  expect(offer.items).toHaveLength(1);
  expect(offer.items[0]!.paxIds).toEqual(["PAX1"]);
  const bought = await c.t.ndc("OrderChangeRQ", addRQ(order.orderId, offer.offerId, [{ offerItemId: offer.items[0]!.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: offer.items[0]!.unitMinor }]));
  expect(bought.status).toBe(200);
  // Now taken: reshopping it again is refused.
  const again = await reshop(reshopSeatRQ(order.orderId, flight, "PAX1", seatId));
  expect(again.status).toBe(409);
  expect(errorCode(again.body)).toBe("seat_unavailable");
  // Two seats in one message: refused, naming SeatCriteria.
  const two = reshopSeatRQ(order.orderId, flight, "PAX1", seatId).replace("</cns:SeatCriteria>", `</cns:SeatCriteria><cns:SeatCriteria><cns:ColumnID>A</cns:ColumnID><cns:RowNumber>30</cns:RowNumber></cns:SeatCriteria>`);
  const refused = await reshop(two);
  expect(refused.status).toBe(400);
  expect(errorCode(refused.body)).toBe("request_invalid");
  expect(refused.body).toContain("SeatCriteria");
});

test("a flight not on the order, a passenger not on it, a missing order: refused", async () => {
  const order = await book(c, { tag: "RS3", payment: [card(FARE_MINOR)] });
  const flight = flightOf(c, order.journeys[0]!.flightKeys[0]!);
  const wrongFlight = await reshop(reshopSeatRQ(order.orderId, { ...flight, date: "2030-01-01" }, "PAX1", "12C"));
  expect([wrongFlight.status, errorCode(wrongFlight.body)]).toEqual([400, "request_invalid"]);
  const wrongPax = await reshop(reshopSeatRQ(order.orderId, flight, "PAX9", "12C"));
  expect([wrongPax.status, errorCode(wrongPax.body)]).toEqual([400, "request_invalid"]);
  const missing = await reshop(reshopExtrasRQ("ORD-00000000000000000000", flight));
  expect([missing.status, errorCode(missing.body)]).toEqual([404, "order_not_found"]);
});
