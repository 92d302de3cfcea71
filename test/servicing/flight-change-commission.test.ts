import { afterAll, beforeAll, expect, test } from "bun:test";
import { putCommissionAgreement, SANDBOX_COMMISSION, type CommissionAgreement } from "@ndc/payments";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway } from "../orders-http/helpers";
import { addRQ } from "./add-helpers";
import { bookCancellable, sellerOf } from "./cancel-helpers";
import { bookBrand } from "./helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { dayAfter, T0 } from "../support/dates";

/**
 * SHPOR1 rule 6 on a flight change's charge, over HTTP (servicing/flight/saga.ts planOf, the
 * rule in @ndc/payments chargeCommission): the seller agency's agreement gives the commission on
 * the change's amount due (not on the order); a flat agreement, or a tiered one in another
 * currency than the order's, gives no rule for such a charge, so the change is refused with
 * commission_rule_not_applicable and nothing is taken. A change that refunds charges nothing, so
 * no commission rule is asked of it. Answers XSD-checked by t.ndc (xmllint --nonet).
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const agree = (a: CommissionAgreement) => t.gw.store.write((tx) => putCommissionAgreement(tx, sellerOf(t).agencyId, a, Date.UTC(2026, 0, 1)));
const get = (orderId: string) => t.gw.orders.ctx.orders.ask(orderId, { op: "get" });

test("a flat agreement and a GBP tiered one refuse a EUR change (nothing taken); a percentage is taken on the amount due", async () => {
  const { order } = await bookCancellable(t, "FCOM1", { brand: "CLASSIC" });
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }));
  const o = q.offers[0]!;
  const dueMinor = Math.round(Number(o.due) * 100);
  expect(dueMinor).toBe(3000);
  const accept = (trxId: string) => t.ndc("OrderChangeRQ", addRQ(order.orderId, o.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: dueMinor }], { correlationId: `fcom-${trxId}`, trxId }));
  const legsBefore = (await t.gw.orders.ctx.payments.ledger.legs(order.orderId)).length;
  try {
    for (const a of [{ kind: "flat", amount: { amount: 500, currency: "EUR" } }, { kind: "tiered", currency: "GBP", tiers: [{ from: 0, basisPoints: 300 }] }] as CommissionAgreement[]) {
      await agree(a);
      const r = await accept(a.kind);
      expect([r.status, errorCode(r.body)]).toEqual([409, "commission_rule_not_applicable"]);
      // Nothing taken: no leg, the order unchanged, no operation (the quote is still good).
      expect((await t.gw.orders.ctx.payments.ledger.legs(order.orderId)).length).toBe(legsBefore);
      expect((await get(order.orderId))!.version).toBe(order.version);
    }
    await agree({ kind: "percentage", basisPoints: 1000 });
    const ok = await accept("pct");
    expect(ok.status).toBe(200);
    const after = (await get(order.orderId))!;
    expect(after.charges!.at(-1)!.commission).toEqual({ amountMinor: 300, basisMinor: dueMinor, rule: "percentage 10.00%" });
  } finally {
    await agree(SANDBOX_COMMISSION);
  }
}, 60_000);

test("a tiered agreement in the order's currency applies its tier to the amount due", async () => {
  const { order } = await bookCancellable(t, "FCOM2", { brand: "CLASSIC" });
  const out = outboundOf(t, order);
  const o = (await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }))).offers[0]!;
  const dueMinor = Math.round(Number(o.due) * 100);
  try {
    await agree({ kind: "tiered", currency: "EUR" as never, tiers: [{ from: 0, basisPoints: 200 }, { from: 100_000, basisPoints: 500 }] });
    const r = await t.ndc("OrderChangeRQ", addRQ(order.orderId, o.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: dueMinor }], { correlationId: "fcom-tier", trxId: "t1" }));
    expect(r.status).toBe(200);
    const c = (await get(order.orderId))!.charges!.at(-1)!.commission!;
    expect([c.amountMinor, c.basisMinor]).toEqual([Math.round(dueMinor * 0.02), dueMinor]);
  } finally {
    await agree(SANDBOX_COMMISSION);
  }
}, 60_000);

test("a change that refunds charges nothing: a flat agreement does not refuse it, and no commission is recorded on it", async () => {
  const b = await bookBrand(t, "CLASSIC", { currency: "JPY" });
  const order = await t.gw.orders.retrieve(b.orderId, sellerOf(t));
  const out = outboundOf(t, order);
  const o = (await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: dayAfter(T0, 46) }))).offers.find((x) => Number(x.due) < 0)!;
  try {
    await agree({ kind: "flat", amount: { amount: 500, currency: "EUR" as never } });
    const r = await t.ndc("OrderChangeRQ", addRQ(order.orderId, o.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [], { correlationId: "fcom-refund", trxId: "t1" }));
    expect(r.status).toBe(200);
    const charge = (await get(order.orderId))!.charges!.at(-1)!;
    expect(charge.amountMinor).toBe(Number(o.due));
    expect(charge.commission).toBeUndefined();
  } finally {
    await agree(SANDBOX_COMMISSION);
  }
}, 60_000);
