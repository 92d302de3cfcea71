import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { tables } from "@ndc/store";
import { countWrites } from "../support/count-writes";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ } from "../orders-http/helpers";
import { pricedOffer } from "../orders-http/adjustments-helpers";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { addRQ } from "./add-helpers";
import { sellerOf } from "./cancel-helpers";
import { bookBrand } from "./helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { dayAfter, T0 } from "../support/dates";

/**
 * Accepting a flight change that costs LESS than the fare paid, over HTTP (decision 0016 "the
 * refund", servicing/flight/refund.ts): nothing is taken, the direction is replaced in the commit
 * write, and the quote's difference (the new fare less the direction as paid plus the change fee
 * the airline keeps) is paid back through the cancellation's phased, keyed refund: newest leg
 * first, each share under its key, so retries give nothing back twice; a discount on the changed
 * flight is clawed back from it (spec 4.5 rule 6). In JPY the band's fee is
 * the bare integer 25 (docs/servicing.md), so the sandbox's cheaper days refund: CLASSIC LHR-CDG
 * on 2027-01-06 is quoted -949 JPY. Every answer is XSD-checked by t.ndc (xmllint --nonet).
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const CHEAPER_DAY = dayAfter(T0, 46);

/** A CLASSIC order in JPY paid by two cards (the second the newer), and its cheaper change quoted. */
async function cheaper(tag: string) {
  const b = await bookBrand(t, "CLASSIC", { currency: "JPY", cards: 2 });
  const order = await t.gw.orders.retrieve(b.orderId, sellerOf(t));
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: CHEAPER_DAY }));
  const offer = q.offers.find((o) => Number(o.due) < 0)!;
  expect(offer).toBeDefined();
  const refundMinor = -Number(offer.due); // JPY has no minor digits
  const rq = (trxId = "trx-1", legs: { card: string; minor: number }[] = []) =>
    addRQ(order.orderId, offer.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], legs, { correlationId: `fcr-${tag}`, trxId });
  return { order, offer, refundMinor, rq, quote: q };
}

const ledgerLegs = (orderId: string) => t.gw.orders.ctx.payments.ledger.legs(orderId);

test("a cheaper change: flights replaced, the quote's difference refunded to the newest leg, the fee kept; PAYSUM and OrderHistoryRS show it", async () => {
  const { order, offer, refundMinor, rq, quote } = await cheaper("R1");
  expect(refundMinor).toBe(949);
  // The quote's sums: the new fare, the direction as paid, the surcharge refunded, the discount clawed back, the fee kept.
  const sums = offer.desc.find((d) => d.startsWith("New fare"))!;
  const [fare, held, surcharge, discount, fee] = [...sums.matchAll(/(-?\d+) JPY/g)].map((m) => Number(m[1]));
  expect(fee).toBe(25);
  expect(quote.fee).toBe("25");
  expect(fare! - held! - surcharge! + discount! + fee!).toBe(-refundMinor);

  const r = await t.ndc("OrderChangeRQ", rq());
  expect(r.status).toBe(200);
  const after = (await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!;
  expect(after.journeys[0]!.flightKeys).not.toEqual(order.journeys[0]!.flightKeys);
  expect(after.journeys[0]!.flightKeys.every((k) => k.endsWith(CHEAPER_DAY))).toBe(true);
  // The order's balance is what stays captured: the total less the refund (the fee is kept in it).
  expect(after.totalMinor).toBe(order.totalMinor - refundMinor);
  // flights_changed, then refunded: no authorise, no capture, no new leg.
  expect(after.history.slice(-2).map((h) => h.kind)).toEqual(["flights_changed", "refunded"]);
  expect(after.legs.length).toBe(order.legs.length);

  // Newest first: the second card gives back the whole difference, the first nothing.
  const [older, newer] = [...(await ledgerLegs(order.orderId))].sort((a, b) => a.seq - b.seq);
  expect([older!.refunded, newer!.refunded]).toEqual([0, refundMinor]);
  expect(newer!.state).toBe("captured"); // partly given back
  const captured = [older!, newer!].reduce((s, l) => s + l.captured - l.refunded, 0);
  expect(captured).toBe(after.totalMinor);

  // PAYSUM: the refund as a REFUNDED entry with its amount, on the newer card.
  const shown = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(order.orderId));
  const refunds = blocks(shown.body, "PaymentFunctions").filter((b) => b.includes("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>"));
  expect(refunds.length).toBe(1);
  expect(refunds[0]).toContain(`>${refundMinor}</cns:Amount>`);
  expect(refunds[0]).toContain(`<cns:PaymentID>${newer!.legId}-R</cns:PaymentID>`);

  // OrderHistoryRS: the change, then the refund with its reason; the total before and after.
  const h = await t.ndc("OrderHistoryRQ", orderHistoryRQ(order.orderId));
  const ops = blocks(h.body, "ChangeOperation");
  const refunded = ops.find((o) => o.includes("<ChangeTypeCode>REFUNDED</ChangeTypeCode>"))!;
  expect(all(refunded, "ReasonCode")).toEqual(["FLIGHT_CHANGE_COMPLETED"]);
  const changed = ops.find((o) => o.includes("<ChangeTypeCode>FLIGHTS_CHANGED</ChangeTypeCode>"))!;
  // The order after (New) and before (Old): its total (the last TotalAmount: the items' come first).
  const total = (x: string) => Number([...x.matchAll(/<opt:TotalAmount CurCode="JPY">(\d+)</g)].at(-1)![1]);
  expect([total(blocks(changed, "New")[0]!), total(blocks(changed, "Old")[0]!)]).toEqual([after.totalMinor, order.totalMinor]);
}, 60_000);

test("PaymentFunctions on a refunded change are refused (nothing written); another request naming the quote after it is quote_already_used", async () => {
  const { order, refundMinor, rq } = await cheaper("R2");
  const paid = await t.ndc("OrderChangeRQ", rq("trx-paid", [{ card: "tok_approve_visa", minor: 100 }]));
  expect(errorCode(paid.body)).toBe("payment_legs_invalid");
  expect((await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!.version).toBe(order.version);
  expect((await t.ndc("OrderChangeRQ", rq())).status).toBe(200);
  const other = await t.ndc("OrderChangeRQ", rq("trx-other"));
  expect([other.status, errorCode(other.body)]).toEqual([409, "quote_already_used"]);
  expect((await ledgerLegs(order.orderId)).reduce((s, l) => s + l.refunded, 0)).toBe(refundMinor);
}, 60_000);

test("25 concurrent retries of the accept refund once: one ledger refund entry, one PSP refund of the quoted amount", async () => {
  const { order, refundMinor, rq } = await cheaper("R3");
  const pspBefore = (await t.gw.store.db.select().from(tables.pspSimPayments)).length;
  const replies = await Promise.all(Array.from({ length: 25 }, () => t.ndc("OrderChangeRQ", rq())));
  for (const r of replies) expect(r.status).toBe(200);
  const legs = await ledgerLegs(order.orderId);
  expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(refundMinor);
  const entries = await t.gw.store.db.select().from(tables.paymentLedgerEntries).where(eq(tables.paymentLedgerEntries.orderId, order.orderId));
  expect(entries.filter((e) => e.type === "refund").map((e) => e.amount)).toEqual([refundMinor]);
  const psp = await t.gw.store.db.select().from(tables.pspSimPayments);
  expect(psp.length).toBe(pspBefore);
  const refs = new Set(legs.map((l) => l.pspReference));
  expect(psp.filter((p) => refs.has(p.pspReference)).reduce((s, p) => s + p.refunded, 0)).toBe(refundMinor);
  const after = (await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!;
  expect(after.history.filter((h) => h.kind === "refunded").length).toBe(1);
}, 60_000);

test("durable writes: open, commit, close (3 gateway writes) and 1 PSP write per refunded card; the replay none", async () => {
  const { rq } = await cheaper("R4");
  const count = <T>(fn: () => Promise<T>) => countWrites(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
  const first = await count(() => t.ndc("OrderChangeRQ", rq()));
  expect(first.result.status).toBe(200);
  expect(first.gateway).toBe(3);
  expect(first.psp).toBe(1);
  const replay = await count(() => t.ndc("OrderChangeRQ", rq()));
  expect(replay.result.status).toBe(200);
  expect(replay.gateway + replay.psp).toBe(0);
}, 60_000);

test("spec 4.5 rule 6: a discount on the changed flight is clawed back from the refund exactly as the quote says", async () => {
  // FLEX in JPY priced by OfferPriceRQ carries PR-NDC-JPY, a 1000 JPY discount on the flight item.
  const priced = await pricedOffer(t, { brand: "FLEX", currency: "JPY" });
  const total = [...blocks(priced.offer, "TotalPrice")[0]!.matchAll(/TotalAmount CurCode="JPY">(\d+)</g)].at(-1)![1]!;
  const pay = `<cns:PaymentFunctions><cns:PaymentProcessingDetails><cns:Amount CurCode="JPY">${total}</cns:Amount><cns:PaymentMethod><cns:PaymentCard><cns:TokenizedCardID>tok_approve_visa</cns:TokenizedCardID></cns:PaymentCard></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`;
  const created = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped: { offerId: priced.offerId, itemIds: priced.itemIds, itemPax: priced.itemPax, totalMinor: 0 }, correlationId: "c-fcr-disc", trxId: "t1" }).replace("</Request>", `${pay}</Request>`));
  expect(created.status).toBe(200);
  const order = await t.gw.orders.retrieve(orderIdOf(created.body), sellerOf(t));
  const discount = order.adjustments.filter((a) => a.effect === "discount").reduce((n, a) => n + a.minor, 0);
  expect(discount).toBe(1000);
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: CHEAPER_DAY }));
  const offer = q.offers.find((o) => Number(o.due) < 0)!;
  const [fare, held, surcharge, clawback, fee] = [...offer.desc.find((d) => d.startsWith("New fare"))!.matchAll(/(-?\d+) JPY/g)].map((m) => Number(m[1]));
  // A one-way order: the whole discount is the changed direction's, clawed back.
  expect(clawback).toBe(discount);
  const refundMinor = -Number(offer.due);
  expect(fare! - held! - surcharge! + clawback! + fee!).toBe(-refundMinor);
  const r = await t.ndc("OrderChangeRQ", addRQ(order.orderId, offer.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [], { correlationId: "fcr-disc", trxId: "t1" }));
  expect(r.status).toBe(200);
  // Paid back: the quote's amount, the discount kept back from it.
  expect((await ledgerLegs(order.orderId)).reduce((n, l) => n + l.refunded, 0)).toBe(refundMinor);
  expect((await t.gw.orders.ctx.orders.ask(order.orderId, { op: "get" }))!.totalMinor).toBe(order.totalMinor - refundMinor);
}, 60_000);
