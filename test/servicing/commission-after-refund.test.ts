import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { blocks } from "../orders-http/order-list-helpers";
import { call } from "../notifications/helpers";
import { acceptCancelRQ, bookCancellable, quote, quoteItems, sellerOf } from "./cancel-helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { bookBrand } from "./helpers";

/**
 * PAYCOM after a refund (issue 19 item 13c, docs/payments.md#commission-spec-44-rule-7-47-servicing-rule-6):
 * the sale's commission is recomputed on what the airline keeps of the sale, under the order's
 * frozen rule (the sandbox agency's 5%). Read from OrderViewRS over HTTP (XSD-checked by t.ndc).
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
}, 60_000);
afterAll(() => t.close());

const minor = (text: string | undefined) => Math.round(Number(text) * 100);
/** bp basis points of an amount, rounded half away from zero, in integers only. */
const share = (amount: number, bp: number) => Math.floor((amount * bp * 2 + 10_000) / 20_000);

async function paycom(orderId: string): Promise<{ amount: number; base: number; percent?: string }> {
  const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(r.status).toBe(200);
  const c = blocks(r.body, "Commission");
  expect(c).toHaveLength(1);
  const valueOf = (name: string) => new RegExp(`<cns:${name}(?: [^>]*)?>([^<]*)</cns:${name}>`).exec(c[0]!)?.[1];
  return { amount: minor(valueOf("Amount")), base: minor(valueOf("PercentageAppliedToAmount")), percent: valueOf("Percentage") };
}

test("a refundable order cancelled with the fee kept: the commission is 5% of what is kept, on that base", async () => {
  const { orderId } = await bookBrand(t, "FLEX");
  const before = await paycom(orderId);
  expect(before.amount).toBe(share(before.base, 500));
  const q = await quote(t, orderId);
  const refund = minor(q.refund);
  expect(refund).toBeGreaterThan(0);
  expect(refund).toBeLessThan(before.base);
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: "cm-flex" }))).status).toBe(200);
  const after = await paycom(orderId);
  expect(after).toEqual({ amount: share(before.base - refund, 500), base: before.base - refund, percent: "5" });
}, 60_000);

test("an order refunded in full (its flight cancelled by the airline): no commission left", async () => {
  const { orderId } = await bookBrand(t, "CLASSIC");
  expect((await paycom(orderId)).amount).toBeGreaterThan(0);
  expect((await call(t, "POST", `/sandbox/orders/${orderId}/schedule-change`, t.gw.sandbox!.api_key, { cancelFlight: true })).status).toBe(200);
  const q = await quote(t, orderId);
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: "cm-full" }))).status).toBe(200);
  expect(await paycom(orderId)).toEqual({ amount: 0, base: 0, percent: "5" });
}, 60_000);

test("an extra bought post-sale and cancelled alone comes back from its own leg: the sale's commission is unchanged", async () => {
  const { orderId } = await bookCancellable(t, "CM-X", { seat: false });
  const listed = await extrasFor(t, orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const added = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_mastercard", minor: item.unitMinor }], { correlationId: "cm-add" }));
  expect(added.status).toBe(200);
  const before = await paycom(orderId);
  const extra = (await t.gw.orders.retrieve(orderId, sellerOf(t))).items.find((i) => i.offerId === listed.offerId)!;
  const q = await quoteItems(t, orderId, [extra.orderItemId]);
  expect(minor(q.refund)).toBe(item.unitMinor);
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: "cm-items" }))).status).toBe(200);
  expect(await paycom(orderId)).toEqual(before);
}, 60_000);
