import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import type { TestGateway } from "../support/gateway";
import { gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { bookCancellable } from "./cancel-helpers";

/**
 * OrderViewRS as sellers' order-management code reads it (issue 9 item 12), over HTTP and
 * XSD-checked by t.ndc: every Service names a ServiceDefinition of the answer's
 * ServiceDefinitionList except a flight's, which names its segment directly
 * (OrderServiceAssociation/PaxSegmentRef, issue 20 item 8; a seat the seat assignment's,
 * SeatOnLeg/ServiceDefinitionRefID; an extra its product's), a fare's definition points at its frozen allowances in
 * BaggageAllowanceList, and the other item-12 elements are all there: per OrderItem Price
 * (BaseAmount, TaxSummary/Tax with Amount, TaxCode, TaxName, TotalAmount), CancelRestrictions and
 * ChangeRestrictions, CreationDateTime (an extra's is when it was bought); each Service's
 * DeliveryStatusCode; the order's CreationDateTime, LastModifiedDateTime, OrderVersionNumber;
 * each passenger's Birthdate.
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

test("every Service but a flight's refers to a listed ServiceDefinition; a flight names its segment; a fare's definition refers to its allowances; the item-12 elements are present", async () => {
  const { orderId, order } = await bookCancellable(t, "SD-1", { brand: "CLASSIC", seat: true });
  // An extra bought an hour later: its item's CreationDateTime is then, not the booking's.
  clock.advance(3_600_000);
  const listed = await extrasFor(t, orderId);
  const bag = listed.items.find((i) => i.serviceDefinitionId === "SD-BAG1")!;
  const bought = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: bag.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: bag.unitMinor }]));
  expect(bought.status).toBe(200);

  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(r.status).toBe(200);
  const list = blocks(r.body, "ServiceDefinitionList")[0]!;
  const definitions = new Map(blocks(list, "ServiceDefinition").map((d) => [all(d, "ServiceDefinitionID")[0]!, d]));
  const services = blocks(blocks(r.body, "Order")[0]!, "Service");
  expect(services.length).toBeGreaterThanOrEqual(3); // the flight, the seat, the bag
  const kinds = new Set<string>();
  const segments = new Set(all(r.body, "PaxSegmentID"));
  for (const s of services) {
    const refs = all(s, "ServiceDefinitionRefID");
    expect(all(s, "DeliveryStatusCode").length).toBe(1);
    if (s.includes("<cns:OrderServiceAssociation><cns:PaxSegmentRef>")) {
      // A flight: its segment, defined in the DataLists, and no definition.
      expect(refs).toEqual([]);
      expect(segments.has(all(s, "PaxSegmentRefID")[0]!)).toBe(true);
      kinds.add("flight");
      continue;
    }
    expect(refs.length).toBe(1);
    expect(definitions.has(refs[0]!)).toBe(true);
    kinds.add(s.includes("<cns:SeatOnLeg>") ? "seat" : "extra");
  }
  expect([...kinds].sort()).toEqual(["extra", "flight", "seat"]);

  // The flight's definition is its fare brand, with the frozen allowances by reference.
  const fare = definitions.get("SD-FARE-CLASSIC")!;
  expect(fare).toBeDefined();
  const allowanceIds = new Set(all(blocks(r.body, "BaggageAllowanceList")[0]!, "BaggageAllowanceID"));
  const referenced = all(fare, "BaggageAllowanceRefID");
  expect(referenced.length).toBeGreaterThan(0);
  expect(referenced.every((id) => allowanceIds.has(id))).toBe(true);

  // The other item-12 elements.
  const orderBlock = blocks(r.body, "Order")[0]!;
  const items = blocks(orderBlock, "OrderItem");
  for (const item of items) {
    const price = blocks(item, "Price")[0]!;
    expect(price).toContain('<cns:BaseAmount CurCode="EUR">');
    expect(price).toContain('<cns:TotalAmount CurCode="EUR">');
    expect(all(item, "CreationDateTime").length).toBe(1);
  }
  const flightItem = items.find((i) => i.includes("<cns:OrderServiceAssociation><cns:PaxSegmentRef>"))!;
  const taxes = blocks(flightItem, "Tax");
  expect(taxes.length).toBeGreaterThan(0);
  for (const tax of taxes) expect([/<cns:Amount CurCode=/.test(tax), all(tax, "TaxCode").length, all(tax, "TaxName").length]).toEqual([true, 1, 1]);
  expect(blocks(flightItem, "CancelRestrictions").length).toBeGreaterThan(0);
  expect(blocks(flightItem, "ChangeRestrictions").length).toBeGreaterThan(0);
  const bagItem = items.find((i) => i.includes(`<cns:ServiceDefinitionRefID>SD-BAG1<`))!;
  expect(all(bagItem, "CreationDateTime")).toEqual([new Date(clock.now()).toISOString()]);
  expect(all(flightItem, "CreationDateTime")).toEqual([new Date(order.createdAt).toISOString()]);
  const orderOwn = orderBlock.replace(/<cns:OrderItem>[\s\S]*<\/cns:OrderItem>/, "");
  expect(all(orderOwn, "CreationDateTime")).toEqual([new Date(order.createdAt).toISOString()]);
  expect(all(orderOwn, "LastModifiedDateTime")).toEqual([new Date(clock.now()).toISOString()]);
  const after = (await t.gw.orders.ctx.orders.ask(orderId, { op: "get" }))!;
  expect(all(orderOwn, "OrderVersionNumber")).toEqual([String(after.version)]);
  expect(after.version).toBeGreaterThan(order.version);
  expect(all(r.body, "Birthdate").length).toBe(order.passengers.length);
}, 60_000);
