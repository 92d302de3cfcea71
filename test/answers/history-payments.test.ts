import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor } from "../servicing/add-helpers";
import { acceptCancelRQ, quote } from "../servicing/cancel-helpers";
import { bookBrand } from "../servicing/helpers";

/**
 * Issue 20 item 9 over HTTP (answers XSD-checked by t.ndc): in OrderHistoryRS each
 * ChangeOperation's New carries the PaymentFunctions/PaymentProcessingSummary of the payment the
 * change made, masked as PAYSUM: the booking's authorisation, its capture, the extra's own leg,
 * the cancellation's refunds (one `<leg>-R` per leg paid back, adding up to the quoted refund).
 * A change that moved no money (the inventory confirmation) carries none.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

/** A ChangeGroup's operation type and its New's payment entries (id, status, amount, the masked card). */
function payments(group: string) {
  const type = /<ChangeTypeCode>([^<]+)</.exec(group)![1]!;
  const fresh = blocks(group, "New")[0] ?? "";
  const entries = blocks(fresh, "opt:PaymentFunctions").map((pf) => ({
    id: all(pf, "PaymentID")[0]!,
    status: all(pf, "PaymentStatusCode")[0]!,
    amount: /<opt:Amount CurCode="EUR">([^<]+)</.exec(pf)?.[1],
    card: all(pf, "MaskedCardID")[0]!,
  }));
  return { type, entries };
}

test("each change's New names the payments it made: booking authorised, captured, an extra paid by its own leg", async () => {
  const { orderId } = await bookBrand(t, "FLEX");
  const listed = await extrasFor(t, orderId);
  const bag = listed.items.find((i) => i.serviceDefinitionId === "SD-BAG1")!;
  expect((await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: bag.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_amex", minor: bag.unitMinor }]))).status).toBe(200);
  const order = (await t.gw.orders.ctx.orders.ask(orderId, { op: "get" }))!;

  const r = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
  expect(r.status).toBe(200);
  const seen = blocks(r.body, "ChangeGroup").map(payments);
  const byType = (type: string) => seen.filter((s) => s.type === type).flatMap((s) => s.entries);

  const sale = order.legs.find((l) => l.changeRef !== order.legs.at(-1)!.changeRef)!;
  const extra = order.legs.at(-1)!;
  const eur = (minor: number) => (minor / 100).toFixed(2);
  // The booking authorised the sale's leg; the capture took it.
  expect(byType("ORDER_CREATED")).toEqual([{ id: sale.legId, status: "AUTHORISED", amount: eur(sale.amountMinor), card: "XXXXXXXXXXXX4242" }]);
  expect(byType("PAYMENT_CAPTURED")).toContainEqual({ id: sale.legId, status: "CAPTURED", amount: eur(sale.amountMinor), card: "XXXXXXXXXXXX4242" });
  // The extra's own leg, paid by another card.
  const added = byType("ITEMS_ADDED");
  expect(added.map((e) => e.id)).toEqual([extra.legId]);
  expect(added[0]!.amount).toBe(eur(bag.unitMinor));
  expect(added[0]!.card).toBe("XXXXXXXXXXXX0005");
  // The inventory confirmation moved no money.
  expect(byType("INVENTORY_CONFIRMED")).toEqual([]);
  expect(r.body).not.toMatch(/\b4242424242424242\b/);

  // Cancelled (FLEX: refunded less the fee): the refund's entries add up to the quoted refund.
  const q = await quote(t, orderId);
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId))).status).toBe(200);
  const after = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
  const refunds = blocks(after.body, "ChangeGroup").map(payments).filter((s) => s.type === "REFUNDED").flatMap((s) => s.entries);
  expect(refunds.length).toBeGreaterThan(0);
  expect(refunds.every((e) => e.id.endsWith("-R") && e.status === "REFUNDED")).toBe(true);
  expect(refunds.reduce((n, e) => n + Math.round(Number(e.amount) * 100), 0)).toBe(Math.round(Number(q.refund) * 100));
}, 60_000);
