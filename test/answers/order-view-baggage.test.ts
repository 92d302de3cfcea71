import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../orders-http/order-list-helpers";
import { bookBrand } from "../servicing/helpers";

/**
 * Issue 20 item 9 over HTTP (answers XSD-checked by t.ndc): OrderViewRS associates each flight
 * item's included baggage as IATA's examples do: per passenger and flight, a Service naming the
 * fare brand's ServiceDefinition with the flight in OrderFlightAssociations/PaxSegmentRef; that
 * definition's BaggageAllowanceRef names entries of BaggageAllowanceList. A brand without an
 * allowance (SAVER) has neither.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

test("a CLASSIC return: each passenger and flight has an included-baggage Service whose definition names listed allowances", async () => {
  const { orderId } = await bookBrand(t, "CLASSIC", { back: true });
  const order = (await t.gw.orders.ctx.orders.ask(orderId, { op: "get" }))!;
  const flights = order.journeys.flatMap((j) => j.flightKeys).length;
  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(r.status).toBe(200);
  const allowanceIds = new Set(all(blocks(r.body, "BaggageAllowanceList")[0] ?? "", "BaggageAllowanceID"));
  expect(allowanceIds.size).toBeGreaterThan(0);
  const definitions = new Map(blocks(r.body, "ServiceDefinition").map((d) => [all(d, "ServiceDefinitionID")[0]!, d]));
  const segments = new Set(all(r.body, "PaxSegmentID"));

  const flightItem = blocks(blocks(r.body, "Order")[0]!, "OrderItem").find((i) => i.includes("<cns:OrderServiceAssociation><cns:PaxSegmentRef>"))!;
  const bags = blocks(flightItem, "Service").filter((s) => s.includes("<cns:ServiceDefinitionRef>"));
  expect(bags.length).toBe(order.passengers.length * flights);
  const flown = new Set<string>();
  for (const s of bags) {
    const ref = all(s, "ServiceDefinitionRefID")[0]!;
    expect(ref).toBe("SD-FARE-CLASSIC");
    const segment = all(blocks(s, "OrderFlightAssociations")[0]!, "PaxSegmentRefID")[0]!;
    expect(segments.has(segment)).toBe(true);
    flown.add(segment);
    const named = all(definitions.get(ref)!, "BaggageAllowanceRefID");
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((id) => allowanceIds.has(id))).toBe(true);
  }
  expect(flown.size).toBe(flights);
}, 60_000);

test("a SAVER order states no allowance and no included-baggage Service", async () => {
  const { orderId } = await bookBrand(t, "SAVER");
  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(r.status).toBe(200);
  expect(blocks(r.body, "BaggageAllowanceList")).toEqual([]);
  expect(blocks(blocks(r.body, "Order")[0]!, "Service").filter((s) => s.includes("SD-FARE-"))).toEqual([]);
}, 60_000);
