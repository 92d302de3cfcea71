import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import type { Order } from "@ndc/orders";
import { tables } from "@ndc/store";
import { errorCode, type TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { gateway, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../orders-http/order-list-helpers";
import { acceptCancelRQ, amountIn, bookCancellable, cancelItemsRQ, quote, sellerOf } from "./cancel-helpers";
import { addRQ, extrasFor, quoteRQ, reshopExtrasRQ, type ListedItem } from "./add-helpers";
import { call } from "../notifications/helpers";
import { directionsOf, flightQuote, outboundOf, reshopFlightRQ, reshopFlightsRQ } from "./flight-change-helpers";
import { bookBrand } from "./helpers";
import { verifyFlightsChange } from "@ndc/orders";
import { orderHistoryRQ } from "../orders-http/order-list-helpers";

/**
 * DeleteOrderItem/RespendInd over HTTP (issue 20 item 6, docs/servicing.md "keeping the value"):
 * an items cancellation that keeps the value for a following change instead of refunding it;
 * the value shown (OrderViewRS PAYSUM RETAINED, the quote's Residual), spent on an addition,
 * refunded by a cancellation of the order or at its lapse. Every answer is checked against its
 * 24.4 XSD by t.ndc (xmllint --nonet).
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
const minorOf = (decimal: string) => Math.round(Number(decimal) * 100);
const RESPEND = "<cns:RespendInd>true</cns:RespendInd>";

async function money(orderId: string): Promise<{ order: Order; captured: number; refunded: number }> {
  const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
  const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
  return { order, captured: legs.reduce((s, l) => s + l.captured, 0), refunded: legs.reduce((s, l) => s + l.refunded, 0) };
}

/** Every cent retained, spent on a change or refunded: the order's total and what it retains are what was captured and not refunded. */
async function balanced(orderId: string): Promise<void> {
  const { order, captured, refunded } = await money(orderId);
  expect(order.retained?.amountMinor ?? 0).toBeGreaterThanOrEqual(0);
  if (order.state === "booked") expect(order.totalMinor + (order.retained?.amountMinor ?? 0)).toBe(captured - refunded);
}

/** A booked order (a return when `back`) with airline extras bought post-sale (one leg of their own), the cheapest priced extra `n` times. */
async function withExtras(tag: string, n = 1, brand?: string, back = false): Promise<{ orderId: string; extras: Order["items"]; item: ListedItem; offerId: string }> {
  const { orderId } = back ? await bookBrand(t, brand ?? "CLASSIC", { back: true }) : await bookCancellable(t, tag, brand ? { brand } : {});
  const listed = await extrasFor(t, orderId);
  const item = listed.items.filter((i) => i.paxIds.includes("PAX1") && i.unitMinor > 0).sort((a, b) => a.unitMinor - b.unitMinor)[0]!;
  const bought = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty: n }], [{ card: "tok_approve_mastercard", minor: item.unitMinor * n }], { correlationId: `x-${tag}` }));
  expect(bought.status).toBe(200);
  const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
  return { orderId, extras: order.items.filter((i) => i.offerId === listed.offerId), item, offerId: listed.offerId };
}

/** Quote (RespendInd true) and accept: the value kept. */
async function retain(orderId: string, itemIds: string[]): Promise<{ quoteBody: string; retainedMinor: number }> {
  const q = await t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, itemIds, { extra: RESPEND }));
  expect(q.status).toBe(200);
  const offer = blocks(q.body, "Offer")[0]!;
  const quoteId = all(offer, "OfferID")[0]!;
  expect(minorOf(amountIn(blocks(offer, "TotalPrice")[0]!)!)).toBe(0);
  const ok = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, quoteId, { trxId: `keep-${orderId}` }));
  expect(ok.status).toBe(200);
  const { order } = await money(orderId);
  return { quoteBody: q.body, retainedMinor: order.retained?.amountMinor ?? 0 };
}

/** The OrderViewRS PAYSUM entry of the retained value, if any. */
async function shownRetained(orderId: string): Promise<string | undefined> {
  const shown = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(shown.status).toBe(200);
  return blocks(shown.body, "PaymentFunctions").find((b) => b.includes("<cns:PaymentStatusCode>RETAINED</cns:PaymentStatusCode>"));
}

describe("an items cancellation with RespendInd", () => {
  test("refunds nothing: the value is retained on the order, shown as Residual in the quote and RETAINED in OrderViewRS; 2 writes, no PSP call", async () => {
    const { orderId, extras } = await withExtras("RS1");
    const before = await money(orderId);
    const q = await countWrites(() => t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [extras[0]!.orderItemId], { extra: RESPEND })));
    expect(q.result.status).toBe(200);
    expect(q.gateway + q.psp).toBe(0);
    const offer = blocks(q.result.body, "Offer")[0]!;
    expect(minorOf(amountIn(blocks(offer, "TotalPrice")[0]!)!)).toBe(0);
    const diff = blocks(offer, "PriceDifferential")[0]!;
    expect(all(diff, "DifferentialTypeCode")).toEqual(["Residual"]);
    expect(minorOf(amountIn(blocks(diff, "DiffPrice")[0]!)!)).toBe(extras[0]!.totalMinor);
    expect(offer).toContain("retained on the order");

    const w = await countWrites(() => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, all(offer, "OfferID")[0]!)));
    expect(w.result.status).toBe(200);
    // The commit write and the close write; nothing paid back, so no PSP call.
    expect(w.gateway).toBe(2);
    expect(w.psp).toBe(0);
    const after = await money(orderId);
    expect(after.refunded).toBe(before.refunded);
    expect(after.order.retained?.amountMinor).toBe(extras[0]!.totalMinor);
    expect(after.order.totalMinor).toBe(before.order.totalMinor - extras[0]!.totalMinor);
    await balanced(orderId);

    const entry = (await shownRetained(orderId))!;
    expect(entry).toBeDefined();
    expect(minorOf(/<cns:Amount CurCode="EUR">([^<]+)</.exec(entry)![1]!)).toBe(extras[0]!.totalMinor);
    expect(entry).toContain("<cns:TrxTypeText>Retained</cns:TrxTypeText>");
  }, 60_000);

  test("RespendInd differing between the DeleteOrderItems of one quote is refused, naming the element", async () => {
    const { orderId, extras } = await withExtras("RS2", 2);
    const ids = extras.map((e) => e.orderItemId);
    expect(ids.length).toBeGreaterThanOrEqual(1);
    const body = cancelItemsRQ(orderId, [ids[0]!], { extra: RESPEND }).replace("</cns:ServiceOrder>", `<cns:DeleteOrderItem><cns:OrderItemRefID>${ids[0]}-X</cns:OrderItemRefID><cns:RespendInd>false</cns:RespendInd></cns:DeleteOrderItem></cns:ServiceOrder>`);
    const r = await t.ndc("OrderReshopRQ", body);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(r.body).toContain("RespendInd");
  }, 60_000);
});

describe("the retained value spent", () => {
  test("a following addition costs less by it: paid by the retained value alone when it covers it, the rest staying retained", async () => {
    // Two of the extra kept: one bought again from it, one's worth left.
    const { orderId, extras, item, offerId } = await withExtras("RS3", 2);
    const { retainedMinor } = await retain(orderId, extras.map((e) => e.orderItemId));
    expect(retainedMinor).toBe(item.unitMinor * 2);
    // The add reshop's offer states the value available (its items keep their prices).
    const out = outboundOf(t, (await money(orderId)).order);
    const reshop = await t.ndc("OrderReshopRQ", reshopExtrasRQ(orderId, out));
    expect(reshop.status).toBe(200);
    expect(all(blocks(reshop.body, "ALaCarteOffer")[0]!, "DescText").some((d) => d.includes("Retained value on the order (RespendInd): " + (retainedMinor / 100).toFixed(2)))).toBe(true);
    const listed = await extrasFor(t, orderId);
    const again = listed.items.find((i) => i.serviceDefinitionId === item.serviceDefinitionId && i.paxIds.includes("PAX1"))!;
    // Covered: no PaymentFunctions at all.
    const w = await countWrites(() => t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: again.offerItemId, paxId: "PAX1" }], [], { correlationId: `spend-${orderId}` })));
    expect(w.result.status).toBe(200);
    expect(w.psp).toBe(0);
    const after = await money(orderId);
    expect(after.order.retained?.amountMinor).toBe(retainedMinor - again.unitMinor);
    await balanced(orderId);
    expect(offerId).toBeDefined();
  }, 60_000);

  test("a following addition dearer than the retained value: the legs pay only the difference, nothing stays retained", async () => {
    const { orderId, extras, item } = await withExtras("RS4", 1);
    const { retainedMinor } = await retain(orderId, [extras[0]!.orderItemId]);
    const listed = await extrasFor(t, orderId);
    const again = listed.items.find((i) => i.serviceDefinitionId === item.serviceDefinitionId && i.paxIds.includes("PAX1"))!;
    const before = await money(orderId);
    // Three of them, paid: what they cost less what was retained.
    const due = again.unitMinor * 3 - retainedMinor;
    // A firm quote of them (OrderQuoteRQ) says so.
    const quoted = await t.ndc("OrderQuoteRQ", quoteRQ(orderId, listed.offerId, [{ offerItemId: again.offerItemId, paxId: "PAX1", qty: 3 }], { correlationId: `q-${orderId}` }));
    expect(quoted.status).toBe(200);
    expect(quoted.body).toContain(`pays ${(retainedMinor / 100).toFixed(2)} EUR of it: ${(due / 100).toFixed(2)} EUR due`);
    const full = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: again.offerItemId, paxId: "PAX1", qty: 3 }], [{ card: "tok_approve_visa", minor: again.unitMinor * 3 }], { correlationId: `full-${orderId}` }));
    expect(errorCode(full.body)).toBe("payment_legs_invalid");
    const w = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: again.offerItemId, paxId: "PAX1", qty: 3 }], [{ card: "tok_approve_visa", minor: due }], { correlationId: `due-${orderId}` }));
    expect(w.status).toBe(200);
    const after = await money(orderId);
    expect(after.captured - before.captured).toBe(due);
    expect(after.order.retained).toBeUndefined();
    expect(await shownRetained(orderId)).toBeUndefined();
    await balanced(orderId);
  }, 60_000);
});

describe("the retained value spent on a flight change", () => {
  test("the reshop offer's TotalPrice is the change's due less the retained value, down to zero; accepted, the legs pay that and the rest stays retained", async () => {
    const { orderId, extras } = await withExtras("RS6", 1, "CLASSIC");
    const { retainedMinor } = await retain(orderId, [extras[0]!.orderItemId]);
    const { order } = await money(orderId);
    const out = outboundOf(t, order);
    const q = await flightQuote(t, reshopFlightRQ(orderId, out.itemIds, { ...out, date: "2027-01-13" }));
    const offer = q.offers[0]!;
    // The change fee and fare difference of the sandbox's CLASSIC next day (flight-change-accept.test.ts): 30.00.
    const fullMinor = 3000;
    const dueMinor = Math.max(0, fullMinor - retainedMinor);
    expect(minorOf(offer.due)).toBe(dueMinor);
    expect(offer.desc.some((d) => d.startsWith("Retained value on the order"))).toBe(true);
    const before = await money(orderId);
    const r = await t.ndc("OrderChangeRQ", addRQ(orderId, offer.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], dueMinor > 0 ? [{ card: "tok_approve_visa", minor: dueMinor }] : [], { correlationId: `fc-${orderId}` }));
    expect(r.status).toBe(200);
    const after = await money(orderId);
    expect(after.captured - before.captured).toBe(dueMinor);
    expect(after.order.retained?.amountMinor ?? 0).toBe(Math.max(0, retainedMinor - fullMinor));
    expect(after.order.charges!.at(-1)!.retainedSpentMinor).toBe(Math.min(retainedMinor, fullMinor));
    await balanced(orderId);
  }, 60_000);

  test("a change of both directions of a return: the retained value is taken off the whole change's due once; each AddedOfferItem keeps its direction's due", async () => {
    const { orderId, extras } = await withExtras("RS7", 1, "CLASSIC", true);
    const { retainedMinor } = await retain(orderId, [extras[0]!.orderItemId]);
    expect(retainedMinor).toBeGreaterThan(0);
    const { order } = await money(orderId);
    expect(order.journeys.length).toBe(2);
    const [out, back] = directionsOf(t, order);
    const flightIds = order.items.filter((i) => i.kind === "flight").map((i) => i.orderItemId);
    const q = await flightQuote(t, reshopFlightsRQ(orderId, flightIds, [{ ...out!, date: "2027-01-13" }, { ...back!, date: "2027-01-16" }]));
    const offer = q.offers[0]!;
    // The whole change's due (both directions, their fees included) as signed in the offer's id.
    const fullMinor = verifyFlightsChange(t.gw.orders.ctx.fieldKey, offer.quoteId, orderId, "X").dueMinor;
    expect(fullMinor).toBeGreaterThan(0);
    const dueMinor = Math.max(0, fullMinor - retainedMinor);
    expect(minorOf(offer.due)).toBe(dueMinor);
    expect(offer.desc.filter((d) => d.startsWith("Retained value on the order")).length).toBe(1);
    // Each direction's AddedOfferItem states its own due; together they are the change's due before the retained value.
    const shown = blocks(q.body, "Offer").find((b) => b.includes(offer.quoteId))!;
    const added = blocks(shown, "AddedOfferItem").map((a) => minorOf(/DueToAirlineAmount[^>]*>([^<]+)</.exec(a)?.[1] ?? "0") - minorOf(/DueByAirlineAmount[^>]*>([^<]+)</.exec(a)?.[1] ?? "0"));
    expect(added.length).toBe(2);
    expect(added[0]! + added[1]!).toBe(fullMinor);
    const before = await money(orderId);
    const r = await t.ndc("OrderChangeRQ", addRQ(orderId, offer.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], dueMinor > 0 ? [{ card: "tok_approve_visa", minor: dueMinor }] : [], { correlationId: `fc2-${orderId}` }));
    expect(r.status).toBe(200);
    const after = await money(orderId);
    expect(after.order.journeys.map((j) => j.flightKeys[0])).not.toEqual(order.journeys.map((j) => j.flightKeys[0]));
    expect(after.captured - before.captured).toBe(dueMinor);
    expect(after.order.retained?.amountMinor ?? 0).toBe(Math.max(0, retainedMinor - fullMinor));
    expect(after.order.charges!.at(-1)!.amountMinor).toBe(fullMinor);
    expect(after.order.charges!.at(-1)!.retainedSpentMinor).toBe(Math.min(retainedMinor, fullMinor));
    await balanced(orderId);
  }, 60_000);
});

describe("the retained value refunded", () => {
  test("a cancellation of the whole order refunds it with the rest, newest leg first", async () => {
    const { orderId, extras } = await withExtras("RS5");
    const { retainedMinor } = await retain(orderId, [extras[0]!.orderItemId]);
    const before = await money(orderId);
    const whole = await quote(t, orderId);
    expect(minorOf(whole.refund)).toBeGreaterThanOrEqual(retainedMinor);
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, whole.quoteId))).status).toBe(200);
    const after = await money(orderId);
    expect(after.order.state).toBe("cancelled");
    expect(after.order.retained).toBeUndefined();
    expect(after.refunded - before.refunded).toBe(minorOf(whole.refund));
    // The extra's own leg (the newest) is paid back first.
    const legs = [...(await t.gw.orders.ctx.payments.ledger.legs(orderId))].sort((a, b) => b.seq - a.seq);
    expect(legs[0]!.refunded).toBe(Math.min(legs[0]!.captured, minorOf(whole.refund)));
    expect(after.order.cancellation?.retainedMinor).toBe(retainedMinor);
  }, 60_000);
});

describe("the retained value's lapse", () => {
  // Last in the file: it moves the gateway's clock to the first departure.
  test("unspent at the first departure: refunded newest leg first by the orders.retained-lapse sweep (2 writes, 1 PSP refund), once; OrderHistoryRS says why", async () => {
    const { orderId, extras } = await withExtras("RS9");
    const { retainedMinor } = await retain(orderId, [extras[0]!.orderItemId]);
    const { order } = await money(orderId);
    const lapsesAt = order.retained!.lapsesAt;
    expect(lapsesAt).toBeGreaterThan(clock.now());
    const key = t.gw.sandbox!.api_key;
    const sweep = () => call(t, "POST", "/sandbox/scheduler/run", key, { job: "orders.retained-lapse" });

    // Flown before its dates (the sandbox's fly, which runs the closing check): delivered, but the
    // value retained is money not settled, so the order does not close.
    const flown = await call(t, "POST", `/sandbox/orders/${orderId}/fly`, key);
    expect(flown.status).toBe(200);
    expect(flown.json.state).toBe("booked");
    expect(await t.gw.orders.closability(orderId)).toBe("payment_open");

    // A second before the lapse: nothing moves.
    clock.set(lapsesAt - 1000);
    const early = await countWrites(sweep);
    expect(early.result.json.result).toEqual({ refunded: 0 });
    expect(early.gateway + early.psp).toBe(0);

    clock.set(lapsesAt + 60_000);
    const before = await money(orderId);
    const all = (await t.gw.store.db.select({ orderId: tables.orders.orderId }).from(tables.orders)).map((o) => o.orderId);
    const retaining: string[] = [];
    for (const id of all) if ((await t.gw.orders.ctx.orders.ask(id, { op: "get" }))?.retained?.amountMinor) retaining.push(id);
    const due = await countWrites(sweep);
    // This order and those earlier tests left a value retained on.
    const n = due.result.json.result.refunded as number;
    expect(n).toBe(retaining.length);
    expect(retaining).toContain(orderId);
    // Per order: the commit write (the value gone, the operation) and the close write; the PSP pays the one card share.
    expect(due.gateway).toBe(2 * n);
    expect(due.psp).toBe(n);
    const after = await money(orderId);
    expect(after.order.retained).toBeUndefined();
    expect(after.refunded - before.refunded).toBe(retainedMinor);
    const legs = [...(await t.gw.orders.ctx.payments.ledger.legs(orderId))].sort((a, b) => b.seq - a.seq);
    expect(legs[0]!.refunded).toBe(retainedMinor);
    await balanced(orderId);
    expect(await shownRetained(orderId)).toBeUndefined();

    // Again: nothing written, nothing paid.
    const again = await countWrites(sweep);
    expect(again.result.json.result).toEqual({ refunded: 0 });
    expect(again.gateway + again.psp).toBe(0);

    // Settled now: the closing check closes it.
    expect(await t.gw.orders.closability(orderId)).toBeNull();
    const h = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
    expect(h.status).toBe(200);
    const ops = blocks(h.body, "ChangeOperation");
    expect(ops.some((b) => b.includes("RETAINED_VALUE_LAPSED"))).toBe(true);
    expect(ops.at(-1)).toContain("REFUNDED");
  }, 60_000);
});
