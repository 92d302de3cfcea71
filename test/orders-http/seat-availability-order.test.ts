import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import type { TestGateway } from "../support/gateway";
import { errorCode } from "../support/gateway";
import { seatAvailabilityRQ } from "../shopping/seat-availability-helpers";
import { all, blocks } from "../shopping/shop-requests";
import { gateway, ndcAs, orderCreateRQ, orderIdOf, otherSeller, shopOffer } from "./helpers";

/**
 * SeatAvailabilityRQ for a booked order (OrderRequest), issue 7 item 15: the seat map of the
 * order's flights, its own seats shown occupied with a seat profile whose SeatKeywords name the
 * order item and passengers (docs/messages/SeatAvailabilityRQ.md), other sold seats occupied, and
 * another seller's order answered exactly like a missing one. Orders are booked over HTTP
 * (AirShopping, SeatAvailability, OrderCreate); every XML answer is XSD-checked.
 */
let t: TestGateway;
let clock: ManualClock;
let other: Record<string, string>;
let orderId: string;
let theirOrderId: string;
let mine: { orderItemId: string; seatId: string; paxIds: string[] }[];
let theirs: string[];
let segment: string;

const seatOf = (xml: string, seatId: string): string | undefined => {
  const row = Number(seatId.slice(0, -1));
  const col = seatId.slice(-1);
  return blocks(xml, "Seat").find((s) => all(s, "ColumnID")[0] === col && all(s, "RowNumber")[0] === String(row));
};

beforeAll(async () => {
  ({ t, clock } = await gateway());
  other = await otherSeller(t);
  // Our order: two passengers, two seats, booked and paid.
  const shopped = await shopOffer(t, { pax: 2, seat: true });
  const created = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "HOPPER", given: "Grace" }, { id: "PAX2", surname: "LOVELACE", given: "Ada" }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "SA-ORD-1", trxId: "TRX-1" }));
  expect(created.status).toBe(200);
  orderId = orderIdOf(created.body);
  const seller = { clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id };
  const order = await t.gw.orders.retrieve(orderId, seller);
  mine = order.items.filter((i) => i.kind === "seat").map((i) => ({ orderItemId: i.orderItemId, seatId: i.ref!, paxIds: i.paxIds }));
  expect(mine).toHaveLength(2);
  // Every seat item id is one the OrderViewRS showed the seller.
  for (const m of mine) expect(all(created.body, "OrderItemID")).toContain(m.orderItemId);
  segment = `SEG-${order.journeys[0]!.flightKeys[0]}`;

  // Another seller books a seat on the same flight (the same first offer of the same day).
  const asOther = { ndc: (message: string, body: string | Uint8Array) => ndcAs(t, other, message, body as string) };
  const theirShop = await shopOffer(asOther, { pax: 1, seat: true });
  const theirCreated = await ndcAs(t, other, "OrderCreateRQ", orderCreateRQ({ shopped: theirShop, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: theirShop.totalMinor }], correlationId: "SA-ORD-2", trxId: "TRX-1" }));
  expect(theirCreated.status).toBe(200);
  theirOrderId = orderIdOf(theirCreated.body);
  const theirOrder = await t.gw.orders.retrieve(theirOrderId, { clientId: "x", agencyId: "AGY-OTHER" });
  theirs = theirOrder.items.filter((i) => i.kind === "seat").map((i) => i.ref!);
  expect(theirs).toHaveLength(1);
  expect(`SEG-${theirOrder.journeys[0]!.flightKeys[0]}`).toBe(segment);
});
afterAll(() => t.close());

test("the order's flights' seat maps: its own seats occupied and marked as its own, another order's seat occupied", async () => {
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ orderId }));
  expect(r.status).toBe(200);
  const maps = blocks(r.body, "SeatMap");
  expect(maps.map((m) => all(m, "PaxSegmentRefID").at(-1))).toEqual([segment]);
  const profiles = blocks(r.body, "SeatProfile");
  for (const m of mine) {
    const seat = seatOf(maps[0]!, m.seatId);
    expect(seat).toBeDefined();
    expect(all(seat!, "OccupationStatusCode")).toEqual(["O"]);
    expect(all(seat!, "OfferItemRefID")).toEqual([]);
    expect(all(seat!, "SeatProfileRefID")).toEqual([`SP-OWN-${m.orderItemId}`]);
    const profile = profiles.find((p) => all(p, "SeatProfileID")[0] === `SP-OWN-${m.orderItemId}`);
    expect(profile).toBeDefined();
    const keywords = blocks(profile!, "SeatKeywords").map((k) => [all(k, "KeyText")[0], all(k, "ValueText")[0]]);
    expect(keywords).toEqual([["OrderItemRefID", m.orderItemId], ...m.paxIds.map((p) => ["PaxRefID", p])]);
  }
  // The other seller's seat is sold: occupied, but not marked as ours, and it names nothing of theirs.
  const theirSeat = seatOf(maps[0]!, theirs[0]!);
  expect(all(theirSeat!, "OccupationStatusCode")).toEqual(["O"]);
  expect(all(theirSeat!, "SeatProfileRefID")[0]).not.toStartWith("SP-OWN-");
  expect(r.body).not.toContain(theirOrderId);
  // Free seats are offered for this order: OrderChangeRQ buys one of them (ORDRE2, test/servicing/).
  expect(all(maps[0]!, "OccupationStatusCode")).toContain("F");
  expect(all(blocks(r.body, "ALaCarteOffer")[0]!, "DescText")[0]).toBe(`Seats for booked order ${orderId}: buy one for one passenger with OrderChangeRQ (SelectedSeat).`);
  // The order's passengers by id and type only: no names.
  expect(all(r.body, "PaxID").sort()).toEqual(["PAX1", "PAX2"]);
  expect(r.body).not.toContain("HOPPER");
  expect(r.body).not.toContain("LOVELACE");
});

test("the other seller sees its own seat as its own, and ours as merely occupied", async () => {
  const r = await ndcAs(t, other, "SeatAvailabilityRQ", seatAvailabilityRQ({ orderId: theirOrderId }));
  expect(r.status).toBe(200);
  const map = blocks(r.body, "SeatMap")[0]!;
  expect(all(seatOf(map, theirs[0]!)!, "SeatProfileRefID")[0]).toStartWith("SP-OWN-");
  for (const m of mine) {
    const seat = seatOf(map, m.seatId)!;
    expect(all(seat, "OccupationStatusCode")).toEqual(["O"]);
    expect(all(seat, "SeatProfileRefID")[0]).not.toStartWith("SP-OWN-");
  }
  expect(r.body).not.toContain(orderId);
});

test("another seller's order is answered exactly like a missing one: 404 order_not_found, same body and headers", async () => {
  const theirsAsked = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ orderId: theirOrderId, correlationId: "SA-NF" }));
  const missing = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ orderId: "ORD-000000000000", correlationId: "SA-NF" }));
  expect(theirsAsked.status).toBe(404);
  expect(errorCode(theirsAsked.body)).toBe("order_not_found");
  expect(theirsAsked.body).toBe(missing.body);
  const hdrs = (h: Headers) => [...h.entries()].filter(([k]) => k !== "x-request-id").sort();
  expect(hdrs(theirsAsked.headers)).toEqual(hdrs(missing.headers));
  expect(theirsAsked.body).not.toContain(theirOrderId);
});

test("a cancelled order has no seats to show: 409 order_state_invalid naming the OrderID", async () => {
  const shopped = await shopOffer(t, { n: 2 });
  const held = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "SA-HELD", trxId: "TRX-1" }));
  const heldId = orderIdOf(held.body);
  expect((await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ orderId: heldId }))).status).toBe(200);
  const limit = Date.parse(all(held.body, "PaymentTimeLimitDateTime")[0]!);
  clock.advance(limit - clock.now() + 1);
  expect(await t.gw.orders.expireUnpaid()).toContain(heldId);
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ orderId: heldId }));
  expect(r.status).toBe(409);
  expect(errorCode(r.body)).toBe("order_state_invalid");
  expect(all(r.body, "TagText")).toEqual(["Request/SeatAvailCoreRequest/OrderRequest/Order/OrderID"]);
});
