import { afterAll, beforeAll, expect, test } from "bun:test";
import { CATALOGUE_SERVICES, SERVICE_BUNDLES } from "@ndc/supply";
import type { Order } from "@ndc/orders";
import { errorCode } from "../support/gateway";
import { all, blocks, book, card, FARE_MINOR, normalise, OTHER, serviceListForOrderRQ, start, type Ctx } from "./order-list-helpers";

let c: Ctx;
let order: Order;
beforeAll(async () => {
  c = await start();
  // A long-haul return trip: AirShopping/ServiceList would offer rides and partner products at both ends.
  order = await book(c, { tag: "SL1", from: "LHR", to: "DXB", returnAfter: 7, pax: [["PAX1", "ADT"], ["PAX2", "CHD"]], payment: [card(2 * FARE_MINOR)] });
});
afterAll(() => c.t.close());

const list = (orderId: string, o: Parameters<typeof serviceListForOrderRQ>[1] = {}) => c.t.ndc("ServiceListRQ", serviceListForOrderRQ(orderId, o));

test("a booked order lists airline extras only, for its flights and passengers: no rides, no partner products", async () => {
  const r = await list(order.orderId);
  expect(r.status).toBe(200);
  const defs = all(r.body, "ServiceDefinitionID");
  const airline = new Set([...CATALOGUE_SERVICES.map((s) => `SD-${s.code}`), ...SERVICE_BUNDLES.map((b) => `SD-${b.code}`)]);
  expect(defs.length).toBeGreaterThan(0);
  for (const d of defs) expect(airline.has(d)).toBe(true);
  for (const s of CATALOGUE_SERVICES) expect(defs).toContain(`SD-${s.code}`);
  const items = blocks(r.body, "OfferItem");
  expect(items.length).toBeGreaterThan(0);
  const segs = new Set(order.journeys.flatMap((j) => j.flightKeys.map((k) => `SEG-${k}`)));
  const journeys = new Set(order.journeys.map((j) => j.paxJourneyId));
  for (const i of items) {
    for (const p of all(i, "PaxRefID")) expect(["PAX1", "PAX2"]).toContain(p);
    for (const s of all(i, "PaxSegmentRefID")) expect(segs.has(s)).toBe(true);
    for (const j of all(i, "PaxJourneyRefID")) expect(journeys.has(j)).toBe(true);
  }
  // Taxonomy of rides (SHPMOD) and partner products (SHPAN3) never appears.
  expect(r.body).not.toMatch(/SD-(RIDE|PP|RAIL|CAR|COACH)/);
  expect(all(r.body, "PaxID").sort()).toEqual(["PAX1", "PAX2"]);
  expect(r.body).toContain('CurCode="EUR"');
  expect(r.body).not.toContain("LOVELACE");
});

test("criteria narrow the booked-order list like an offer's", async () => {
  const r = await list(order.orderId, { criteria: "<cns:ServiceCriteria><cns:TaxonomyCode>1B58</cns:TaxonomyCode></cns:ServiceCriteria>" });
  expect(r.status).toBe(200);
  expect(all(r.body, "ServiceDefinitionID")).toEqual(["SD-LNGE"]);
});

test("a held order lists too; a cancelled order is refused with order_state_invalid", async () => {
  const held = await book(c, { tag: "SL2" });
  expect((await list(held.orderId)).status).toBe(200);
  c.clock.advance(held.paymentTimeLimit! - c.clock.now() + 1);
  await c.t.gw.orders.expireUnpaid();
  const r = await list(held.orderId);
  expect(r.status).toBe(409);
  expect(errorCode(r.body)).toBe("order_state_invalid");
});

test("another seller's order is answered exactly like a missing one (404 order_not_found)", async () => {
  const theirs = await book(c, { tag: "SL3", seller: OTHER });
  const other = await list(theirs.orderId);
  const missing = await list("ORD-00000000000000000000");
  expect(other.status).toBe(404);
  expect(errorCode(other.body)).toBe("order_not_found");
  expect(missing.status).toBe(404);
  expect(normalise(other.body)).toBe(normalise(missing.body));
  expect([...other.headers.keys()].sort()).toEqual([...missing.headers.keys()].sort());
  expect(errorCode((await list(order.orderId, { owner: "LH" })).body)).toBe("order_not_found");
});
