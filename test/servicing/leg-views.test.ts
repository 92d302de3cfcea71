import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Order } from "@ndc/orders";
import type { TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { expectLegsMatchEntries } from "../payments/invariants";
import { acceptCancelRQ, bookCancellable, quote, quoteItems, sellerOf } from "./cancel-helpers";
import { addRQ, extrasFor } from "./add-helpers";

/**
 * One truth for money (issue 21 item 4, docs/payments.md "The ledger"): the ledger's entries are
 * the truth, the leg rows their cache, the order's legs a view moved by the same rule. Over HTTP
 * (every answer XSD-checked by t.ndc): a sale on two card legs, an extra on a leg of its own, the
 * extra cancelled (its leg refunded in full), a partial refund of the fare by the whole
 * cancellation; after each step the rows match the entries and the order's legs say what the
 * ledger's say. Order.totalMinor moves with the items only (actor/total.ts).
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

async function expectOneTruth(orderId: string): Promise<Order> {
  await expectLegsMatchEntries(t.gw.store, orderId);
  const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
  const ledger = await t.gw.orders.ctx.payments.ledger.legs(orderId);
  const view = (legId: string) => order.legs.find((l) => l.legId === legId);
  expect(ledger.map((l) => ({ legId: l.legId, state: view(l.legId)?.state, refunded: view(l.legId)?.refundedMinor ?? 0 }))).toEqual(
    ledger.map((l) => ({ legId: l.legId, state: l.state, refunded: l.refunded })),
  );
  return order;
}

test("the order's legs and the leg rows agree with the ledger's entries through a sale, an extra, its cancellation and the order's", async () => {
  const { orderId } = await bookCancellable(t, "LV1", { legs: 2, brand: "FLEX" });
  const sold = await expectOneTruth(orderId);
  expect(sold.legs.map((l) => l.state)).toEqual(["captured", "captured"]);

  const listed = await extrasFor(t, orderId);
  const item = listed.items.find((i) => i.paxIds.includes("PAX1") && i.unitMinor > 0)!;
  const bought = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_mastercard", minor: item.unitMinor }], { correlationId: "x-LV1" }));
  expect(bought.status).toBe(200);
  const added = await expectOneTruth(orderId);
  expect(added.totalMinor).toBe(sold.totalMinor + item.unitMinor);
  const extra = added.items.find((i) => i.offerId === listed.offerId)!;

  const q = await quoteItems(t, orderId, [extra.orderItemId]);
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId))).status).toBe(200);
  const without = await expectOneTruth(orderId);
  expect(without.legs.map((l) => l.state)).toEqual(["captured", "captured", "refunded"]);
  expect(without.totalMinor).toBe(sold.totalMinor);

  const c = await quote(t, orderId);
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, c.quoteId, { correlationId: "cx-LV1" }))).status).toBe(200);
  const cancelled = await expectOneTruth(orderId);
  expect(cancelled.state).toBe("cancelled");
  // A whole cancellation and its refund leave the total as it was: the legs say what went back.
  expect(cancelled.totalMinor).toBe(without.totalMinor);
  expect(cancelled.legs.some((l) => (l.refundedMinor ?? 0) > 0)).toBe(true);
}, 60_000);
