import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { all, blocks, book, card, FARE_MINOR, start, type Ctx } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor, quoteRQ, reshopped, seatsFor } from "./add-helpers";

/**
 * OrderQuoteRQ (issue 9 item 9) over HTTP: a post-sale change priced into a firm quote with an
 * expiry, answered as OrderReshopRS (decision 0013), accepted by OrderChangeRQ naming the quote;
 * an expired quote is offer_expired, a spent one quote_already_used. Requests are checked
 * against IATA_OrderQuoteRQ.xsd, answers against their XSDs.
 */
let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

const send = (message: string, xml: string) => {
  assertSchemaValid(xml);
  return c.t.ndc(message, xml);
};

test("extras quoted firm, accepted by reference: charged as quoted; a second acceptance is refused, a replay answered", async () => {
  const order = await book(c, { tag: "Q1", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const q = await send("OrderQuoteRQ", quoteRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty: 2 }]));
  expect(q.status).toBe(200);
  expect(q.body).toContain("<IATA_OrderReshopRS");
  const quote = reshopped(q.body);
  expect(quote.offerId).toStartWith("QTE-");
  expect(quote.items.map((i) => [i.offerItemId, i.unitMinor, i.paxIds])).toEqual([[item.offerItemId, item.unitMinor, ["PAX1"]]]);
  expect(all(blocks(q.body, "ALaCarteOffer")[0]!, "OfferExpirationTimeLimitDateTime")).toEqual([new Date(c.clock.now() + 15 * 60_000).toISOString()]);
  expect(q.body).toContain(`${((2 * item.unitMinor) / 100).toFixed(2)} EUR in total`);

  const accept = (trxId: string) => send("OrderChangeRQ", addRQ(order.orderId, quote.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty: 2 }], [{ card: "tok_approve_visa", minor: 2 * item.unitMinor }], { correlationId: "Q1-ACCEPT", trxId }));
  const ok = await accept("t1");
  expect(ok.status).toBe(200);
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  expect(after.charges!.map((x) => x.amountMinor)).toEqual([2 * item.unitMinor]);
  expect((await accept("t1")).status).toBe(200);
  const second = await accept("t2");
  expect(second.status).toBe(409);
  expect(errorCode(second.body)).toBe("quote_already_used");
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).charges).toHaveLength(1);
});

test("a quote accepted after its expiry is offer_expired; accepted not as quoted, request_invalid; nothing charged", async () => {
  const order = await book(c, { tag: "Q2", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const quote = reshopped((await send("OrderQuoteRQ", quoteRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }]))).body);
  const other = await send("OrderChangeRQ", addRQ(order.orderId, quote.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty: 3 }], [{ card: "tok_approve_visa", minor: 3 * item.unitMinor }], { trxId: "qty" }));
  expect([other.status, errorCode(other.body)]).toEqual([400, "request_invalid"]);
  c.clock.advance(15 * 60_000 + 1);
  const late = await send("OrderChangeRQ", addRQ(order.orderId, quote.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { trxId: "late" }));
  expect([late.status, errorCode(late.body)]).toEqual([410, "offer_expired"]);
  expect((await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId)).every((l) => l.changeRef === "sale")).toBe(true);
});

test("a seat quoted and accepted; quoting for a held order is refused up front", async () => {
  const order = await book(c, { tag: "Q3", payment: [card(FARE_MINOR)] });
  const { offerId, seats } = await seatsFor(c.t, order.orderId);
  const [seatId, item] = [...seats].find(([, i]) => i.unitMinor > 0)!;
  const q = await send("OrderQuoteRQ", quoteRQ(order.orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }]));
  expect(q.status).toBe(200);
  const quote = reshopped(q.body);
  const ok = await send("OrderChangeRQ", addRQ(order.orderId, quote.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
  expect(ok.status).toBe(200);
  expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).items.find((i) => i.kind === "seat")?.ref).toBe(seatId);
  const held = await book(c, { tag: "Q4" });
  const heldList = await extrasFor(c.t, held.orderId);
  const refused = await send("OrderQuoteRQ", quoteRQ(held.orderId, heldList.offerId, [{ offerItemId: heldList.items[0]!.offerItemId, paxId: "PAX1" }]));
  expect([refused.status, errorCode(refused.body)]).toEqual([409, "order_state_invalid"]);
});
