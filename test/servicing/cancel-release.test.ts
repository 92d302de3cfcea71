import { afterAll, beforeAll, expect, test } from "bun:test";
import { boot, card, footprint, freeSeats, orderInput, SELLER, settlement, shop, tempDir, voucher, type Booted } from "../orders/helpers";

/** The seller's channel, as the NDC handlers ask for a cancellation. */
const BY_SELLER = { channel: "seller" as const, seller: SELLER };

/**
 * A cancellation releases the order's seats and partner units to every channel in the same
 * write as the cancelled state, and refunds the airline's own instruments (voucher, settlement
 * plan) in its close write, newest leg first: here a refundable fare with a seat and a partner
 * product, paid by a voucher, a settlement plan and a card (the newest).
 */
let b: Booted;
const tmp = tempDir();
beforeAll(async () => {
  b = await boot(tmp.url);
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

test("seats and partner stock come back; voucher, settlement and card legs are refunded newest first", async () => {
  const seat = freeSeats(b.supply)[3]!;
  const s = await shop(b, { tag: "rel", seats: [seat], partners: ["PP-ESIM"], brand: "FLEX" });
  const stockBefore = await b.inventory.partnerStock("PP-ESIM");
  const order = await b.orders.create(orderInput("rel", s, { payment: [voucher(1_000), settlement(2_000), card(s.total - 3_000)] }));
  expect(order.state).toBe("booked");
  expect((await b.inventory.partnerStock("PP-ESIM")).sold).toBe(stockBefore.sold + 1);

  const { quote } = await b.orders.quoteCancel(order.orderId, BY_SELLER);
  // A refundable fare: all of it back but the band's fee (25, 50 or 75 EUR).
  expect([2_500, 5_000, 7_500]).toContain(quote.penaltyMinor);
  expect(quote.refundMinor).toBe(s.total - quote.penaltyMinor);
  const cancelled = await b.orders.cancel(order.orderId, BY_SELLER, quote.quoteId);
  expect(cancelled.state).toBe("cancelled");

  const f = await footprint(b.store, order.orderId);
  expect(f.seats).toEqual([]);
  expect(f.partners).toEqual([]);
  expect((await b.inventory.partnerStock("PP-ESIM")).sold).toBe(stockBefore.sold);
  expect((await b.inventory.partnerStock("PP-ESIM")).available).toBe(stockBefore.available);

  // Newest first: the card (seq 3) in full, then the settlement plan, then what is left of the voucher.
  const legs = (await b.payments.ledger.legs(order.orderId)).sort((x, y) => y.seq - x.seq);
  expect(legs.map((l) => l.kind)).toEqual(["card", "settlement", "voucher"]);
  let left = quote.refundMinor;
  for (const l of legs) {
    const take = Math.min(left, l.captured);
    expect(l.refunded).toBe(take);
    left -= take;
  }
  expect(left).toBe(0);
  // The quote named the same shares, in the same order.
  expect(quote.shares.map((x) => x.legId)).toEqual(legs.filter((l) => l.refunded > 0).map((l) => l.legId));
});

test("a partner product cancelled alone: its unit back in the partner's stock in the commit write, its amount refunded newest leg first to own instruments and cards; the seat stays sold", async () => {
  const seat = freeSeats(b.supply)[4]!;
  const s = await shop(b, { tag: "rel-items", seats: [seat], partners: ["PP-ESIM"], brand: "CLASSIC" });
  const stockBefore = await b.inventory.partnerStock("PP-ESIM");
  const order = await b.orders.create(orderInput("rel-items", s, { payment: [card(s.total - 1_000), voucher(1_000)] }));
  expect(order.state).toBe("booked");
  const partner = order.items.find((i) => i.kind === "partner_product")!;
  const { quote } = await b.orders.quoteCancelItems(order.orderId, BY_SELLER, [partner.orderItemId]);
  expect(quote.refundMinor).toBe(partner.totalMinor);
  const after = await b.orders.cancel(order.orderId, BY_SELLER, quote.quoteId);
  expect(after.state).toBe("booked");
  expect(after.partnerHolds).toEqual([]);
  expect((await b.inventory.partnerStock("PP-ESIM")).sold).toBe(stockBefore.sold);
  const f = await footprint(b.store, order.orderId);
  expect(f.partners).toEqual([]);
  expect(f.seats.length).toBe(1);
  // The voucher (the newest leg) gives back first, then the card.
  const legs = (await b.payments.ledger.legs(order.orderId)).sort((x, y) => y.seq - x.seq);
  expect(legs.map((l) => l.kind)).toEqual(["voucher", "card"]);
  expect(legs[0]!.refunded).toBe(Math.min(1_000, partner.totalMinor));
  expect(legs[1]!.refunded).toBe(Math.max(0, partner.totalMinor - 1_000));
});
