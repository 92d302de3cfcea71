import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { bookBrand } from "../servicing/helpers";

/**
 * Issue 20 item 8 over HTTP: a flight item's services name their segment directly
 * (Service/OrderServiceAssociation/PaxSegmentRef), as IATA's examples do, in OrderViewRS and in
 * the whole orders of OrderHistoryRS; the ServiceDefinitionRef form stays for extras. Every answer is XSD-checked by t.ndc (xmllint --nonet).
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

/** The OrderServiceAssociation of each Service of the flight item(s) of an order block, with its prefix. */
function flightAssociations(orderXml: string, p: string): string[] {
  const items = blocks(orderXml, `${p}OrderItem`).filter((i) => !i.includes(`<${p}SeatOnLeg>`));
  // The fare's included baggage (ServiceID ...-BAG) names its definition: order-view-baggage.test.ts.
  const flights = items.flatMap((i) => blocks(i, `${p}Service`)).filter((s) => !/-BAG<\/(cns|opt):ServiceID>/.test(s));
  return flights.map((s) => blocks(s, `${p}OrderServiceAssociation`)[0]!);
}

test("OrderViewRS and OrderHistoryRS: a flight's Service names its PaxSegment directly, one the DataLists define", async () => {
  // A return: two journeys, so two flight services per passenger at least.
  const { orderId } = await bookBrand(t, "CLASSIC", { back: true });
  const order = (await t.gw.orders.ctx.orders.ask(orderId, { op: "get" }))!;
  const flights = order.journeys.flatMap((j) => j.flightKeys).length;
  expect(flights).toBeGreaterThanOrEqual(2);
  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(r.status).toBe(200);
  const segments = new Set(all(r.body, "PaxSegmentID"));
  const assocs = flightAssociations(blocks(r.body, "Order")[0]!, "cns:");
  // One service per passenger and flight of both directions.
  expect(assocs.length).toBe(order.passengers.length * flights);
  for (const a of assocs) {
    expect(a).toMatch(/^<cns:OrderServiceAssociation><cns:PaxSegmentRef><cns:PaxSegmentRefID>[^<]+<\/cns:PaxSegmentRefID><\/cns:PaxSegmentRef><\/cns:OrderServiceAssociation>$/);
    expect(segments.has(all(a, "PaxSegmentRefID")[0]!)).toBe(true);
  }
  expect(new Set(assocs.map((a) => all(a, "PaxSegmentRefID")[0])).size).toBe(flights);

  // OrderHistoryRS: the whole orders in New and Old (FullyOptional namespace) say the same.
  const h = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
  expect(h.status).toBe(200);
  const orders = blocks(h.body, "opt:Order").filter((o) => o.includes("<opt:OrderItem>") && o.includes("<opt:Service>"));
  expect(orders.length).toBeGreaterThan(0);
  for (const o of orders) {
    const hist = flightAssociations(o, "opt:");
    expect(hist.length).toBe(order.passengers.length * flights);
    for (const a of hist) expect(a).toMatch(/^<opt:OrderServiceAssociation><opt:PaxSegmentRef><opt:PaxSegmentRefID>[^<]+<\/opt:PaxSegmentRefID><\/opt:PaxSegmentRef><\/opt:OrderServiceAssociation>$/);
  }
}, 60_000);
