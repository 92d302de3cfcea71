import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { all, blocks } from "../orders-http/order-list-helpers";
import { bookCancellable, quote, quoteItems } from "../servicing/cancel-helpers";

/**
 * Issue 20 item 7, cancel offers over HTTP (answers XSD-checked by t.ndc): each DeleteOrderItem of
 * a cancel quote carries its money structured, as a flight change's AddedOfferItem does:
 * PriceDifferential Refund with what comes back (DiffPrice DueByAirlineAmount), the penalty's share
 * kept from it (Fee naming ChangeFees' PenaltyID, and PenaltyRefID), the item's value (OldPrice),
 * nothing new (NewPrice 0). The shares add up to the offer's TotalPrice and the penalty.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const minor = (s: string | undefined) => Math.round(Number(s) * 100);
const amountOf = (xml: string, name: string) => new RegExp(`<cns:${name} CurCode="EUR">([^<]+)<`).exec(xml)?.[1];

function differentials(body: string) {
  return blocks(blocks(body, "Offer")[0]!, "DeleteOrderItem").map((d) => {
    const diff = blocks(d, "PriceDifferential")[0];
    expect(diff).toBeDefined();
    const fee = blocks(diff!, "Fee")[0];
    return {
      type: all(diff!, "DifferentialTypeCode")[0],
      refund: minor(amountOf(blocks(diff!, "DiffPrice")[0]!, "DueByAirlineAmount")),
      fee: fee ? minor(amountOf(fee, "Amount")) : 0,
      feeRef: fee ? all(fee, "DesigText")[0] : undefined,
      penaltyRef: all(d, "PenaltyRefID")[0],
      old: minor(amountOf(blocks(diff!, "OldPrice")[0]!, "TotalAmount")),
      fresh: minor(amountOf(blocks(diff!, "NewPrice")[0]!, "TotalAmount")),
    };
  });
}

test("a whole-order cancel quote: each DeleteOrderItem's refund and penalty share, adding up to TotalPrice and ChangeFees", async () => {
  const { orderId, order } = await bookCancellable(t, "COM-1", { brand: "FLEX", legs: 2 });
  const q = await quote(t, orderId);
  const penaltyId = all(blocks(q.body, "ChangeFees")[0]!, "PenaltyID")[0];
  const ds = differentials(q.body);
  expect(ds.length).toBe(order.items.length);
  expect(ds.length).toBeGreaterThan(1); // the flight and the seat
  for (const d of ds) {
    expect(d.type).toBe("Refund");
    expect(d.fresh).toBe(0);
    expect(d.refund + d.fee).toBeLessThanOrEqual(d.old);
    if (d.fee > 0) {
      expect(d.feeRef).toBe(penaltyId);
      expect(d.penaltyRef).toBe(penaltyId);
    }
  }
  expect(ds.map((d) => d.old)).toEqual(order.items.map((i) => i.totalMinor));
  expect(ds.reduce((s, d) => s + d.refund, 0)).toBe(minor(q.refund));
  expect(ds.reduce((s, d) => s + d.fee, 0)).toBe(minor(q.penalty));
  expect(minor(q.penalty)).toBeGreaterThan(0);
}, 60_000);

test("an items cancel quote: the seat refunded in full, structured", async () => {
  const { orderId, order } = await bookCancellable(t, "COM-2", { brand: "FLEX" });
  const seat = order.items.find((i) => i.kind === "seat")!;
  const q = await quoteItems(t, orderId, [seat.orderItemId]);
  const [d] = differentials(q.body);
  expect(d!.type).toBe("Refund");
  expect([d!.refund, d!.fee, d!.old, d!.fresh]).toEqual([seat.totalMinor, 0, seat.totalMinor, 0]);
  expect(d!.penaltyRef).toBeUndefined();
  expect(minor(q.refund)).toBe(seat.totalMinor);
}, 60_000);
