import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { all, blocks, book, card, FARE_MINOR, normalise, orderHistoryRQ, OTHER, start, type Ctx } from "./order-list-helpers";

let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

const history = (orderId: string, owner?: string) => c.t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId, { owner, correlationId: "C-HIST" }));

/** The operation's own elements (unprefixed: the whole orders inside New and Old are `opt:`). */
const own = (g: string, name: string) => [...g.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))].map((m) => m[1]!);
/** The order's own StatusCode in a New or Old block (the items' and services' come before it). */
const orderStatus = (x: string | undefined) => (x ? [.../<\/opt:OrderVersionNumber><opt:OwnerCode>[^<]*<\/opt:OwnerCode><opt:StatusCode>([^<]+)</.exec(x)!.slice(1)] : []);

function operations(xml: string) {
  return blocks(xml, "ChangeOperationGroup").map((g) => ({
    version: Number(own(g, "OrderVersionNumber")[0]),
    type: own(g, "ChangeTypeCode")[0],
    reason: own(g, "ReasonCode")[0],
    old: orderStatus(blocks(g, "Old")[0]),
    new: orderStatus(blocks(g, "New")[0]),
    group: g,
  }));
}

test("a paid order: created, then its payment captured and its inventory confirmed, each version with what changed", async () => {
  const order = await book(c, { tag: "H1", pax: [["PAX1", "ADT"], ["PAX2", "ADT"]], payment: [card(2 * FARE_MINOR)] });
  const r = await history(order.orderId);
  expect(r.status).toBe(200);
  const ops = operations(r.body);
  expect(ops.map((o) => o.version)).toEqual(order.history.map((h) => h.version));
  expect(ops[0]!.type).toBe("ORDER_CREATED");
  expect(ops[0]!.reason).toBe("SELLER_REQUEST");
  expect(ops[0]!.group).toContain('<opt:TotalAmount CurCode="EUR">400.00</opt:TotalAmount>');
  // The order as created (the whole order, docs/messages/OrderHistoryRQ.md): the flight item's service for each passenger on its segment
  // (and, for a brand granting an allowance, its included baggage, ServiceID ...-BAG: test/answers/order-view-baggage.test.ts).
  const created = blocks(ops[0]!.group, "New")[0]!;
  const flightServices = blocks(created, "opt:Service").filter((x) => !/-BAG<\/opt:ServiceID>/.test(x));
  expect(flightServices.map((x) => all(x, "opt:PaxRefID")[0])).toEqual(["PAX1", "PAX2"]);
  expect(all(created, "opt:PaxSegmentRefID").every((id) => id.startsWith("SEG-XB-"))).toBe(true);
  expect(ops.slice(1).map((o) => o.type)).toEqual(order.history.slice(1).map((h) => (h.kind === "payment_captured" ? "PAYMENT_CAPTURED" : "INVENTORY_CONFIRMED")));
  // The Response's own OrderRefID (unprefixed; each change's payments name the order in opt:OrderAssociation too).
  expect([...r.body.matchAll(/<OrderRefID>([^<]*)</g)].map((m) => m[1])).toEqual([order.orderId]);
  // Each version is the whole order: the passengers as booked (their names), never an identity document.
  expect(r.body).toContain("LOVELACE");
  expect(r.body).not.toContain("IdentityDoc");
});

test("a held order: declined, then paid: the state before and after each move", async () => {
  const order = await book(c, { tag: "H2", payment: [card(FARE_MINOR, "tok_decline")] });
  expect(order.state).toBe("held_payment_declined");
  await c.t.gw.orders.retryPayment(order.orderId, c.seller, [card(FARE_MINOR)], "retry-1");
  const ops = operations((await history(order.orderId)).body);
  expect(ops[0]).toMatchObject({ type: "ORDER_CREATED", new: expect.arrayContaining(["PAYMENT_DECLINED"]) });
  const paid = ops.find((o) => o.type === "PAYMENT_AUTHORISED")!;
  expect(paid.old).toEqual(["PAYMENT_DECLINED"]);
  expect(paid.new[paid.new.length - 1]).toBe("BOOKED");
});

test("an expired held order: cancelled by the time limit", async () => {
  const order = await book(c, { tag: "H3" });
  c.clock.advance(order.paymentTimeLimit! - c.clock.now() + 1);
  expect(await c.t.gw.orders.expireUnpaid()).toContain(order.orderId);
  const ops = operations((await history(order.orderId)).body);
  expect(ops.at(-1)).toMatchObject({ type: "PAYMENT_EXPIRED", reason: "TIME_LIMIT_EXPIRED", old: ["ORDWPM"], new: ["CANCELLED"] });
});

test("another seller's order is answered exactly like a missing one", async () => {
  const theirs = await book(c, { tag: "H4", seller: OTHER });
  const other = await history(theirs.orderId);
  const missing = await history("ORD-00000000000000000000");
  expect(other.status).toBe(404);
  expect(errorCode(other.body)).toBe("order_not_found");
  expect(missing.status).toBe(other.status);
  expect(normalise(other.body)).toBe(normalise(missing.body));
  expect([...other.headers.keys()].sort()).toEqual([...missing.headers.keys()].sort());
  // Another airline's OwnerCode: not ours, so not found either.
  expect(errorCode((await history(theirs.orderId, "LH")).body)).toBe("order_not_found");
});
