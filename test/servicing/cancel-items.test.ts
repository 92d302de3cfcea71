import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { WebShopChannel } from "@ndc/inventory";
import type { ManualClock } from "@ndc/clock";
import { tables } from "@ndc/store";
import { errorCode, type TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { assertSchemaValid } from "../support/xsd";
import { gateway, orderRetrieveRQ, otherSeller, ndcAs } from "../orders-http/helpers";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { acceptCancelRQ, bookCancellable, cancelItemsRQ, quote, quoteItems, sellerOf } from "./cancel-helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { PspTimeoutError } from "@ndc/payments";

/**
 * Cancelling ITEMS of a booked order over HTTP (issue 9 item 4, docs/servicing.md#cancelling-items):
 * OrderReshopRQ ServiceOrder/DeleteOrderItem alone quotes, OrderChangeRQ AcceptCancelledOffer
 * commits. Every answer is checked against its 24.4 XSD by t.ndc / ndcAs (xmllint --nonet).
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
const minorOf = (decimal: string) => Math.round(Number(decimal) * 100);

async function liveRows(flightKey: string, seatId: string): Promise<{ holder: string; status: string }[]> {
  return t.gw.store.db.all(sql`SELECT holder, status FROM seat_inventory WHERE flight_key = ${flightKey} AND seat_id = ${seatId} AND status IN ('held', 'sold')`);
}

/** A booked order with one airline extra bought post-sale on a leg of its own (the newest). */
async function withExtra(tag: string) {
  const { orderId } = await bookCancellable(t, tag);
  const listed = await extrasFor(t, orderId);
  const item = listed.items.find((i) => i.paxIds.includes("PAX1") && i.unitMinor > 0)!;
  const bought = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_mastercard", minor: item.unitMinor }], { correlationId: `x-${tag}` }));
  expect(bought.status).toBe(200);
  const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
  const extra = order.items.find((i) => i.offerId === listed.offerId)!;
  return { orderId, order, extra };
}

describe("an extra cancelled", () => {
  test("quoted, then accepted: the extra gone, its amount back on the newest leg, in 2 writes and 1 PSP refund; PAYSUM and OrderHistoryRS show it", async () => {
    const { orderId, order, extra } = await withExtra("XI1");
    const q = await countWrites(() => quoteItems(t, orderId, [extra.orderItemId]));
    expect(q.gateway + q.psp).toBe(0);
    expect(q.result.quoteId).toStartWith("CIQ.");
    expect(q.result.items).toEqual([extra.orderItemId]);
    expect(minorOf(q.result.refund)).toBe(extra.totalMinor);
    expect(q.result.body).not.toContain("ChangeFees");

    const w = await countWrites(() => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.result.quoteId)));
    expect(w.result.status).toBe(200);
    expect(w.result.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    expect(all(w.result.body, "OrderItemID")).not.toContain(extra.orderItemId);
    // The commit write and the close write; the PSP's refund of the one card share.
    expect(w.gateway).toBe(2);
    expect(w.psp).toBe(1);

    const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
    expect(after.state).toBe("booked");
    expect(after.items.map((i) => i.orderItemId).sort()).toEqual(order.items.filter((i) => i !== extra).map((i) => i.orderItemId).sort());
    expect(after.totalMinor).toBe(order.totalMinor - extra.totalMinor);
    // Newest first: the extra's own leg (the newest) gives it all back, the fare's leg nothing.
    const legs = [...(await t.gw.orders.ctx.payments.ledger.legs(orderId))].sort((a, b) => a.seq - b.seq);
    expect(legs.map((l) => l.refunded)).toEqual([0, extra.totalMinor]);
    const captured = legs.reduce((s, l) => s + l.captured, 0);
    const refunded = legs.reduce((s, l) => s + l.refunded, 0);
    expect(after.totalMinor).toBe(captured - refunded);

    // PAYSUM: the refunded leg as a REFUNDED entry with its amount.
    const shown = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    const refunds = blocks(shown.body, "PaymentFunctions").filter((b) => b.includes("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>") && b.includes("Refund to"));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toContain((extra.totalMinor / 100).toFixed(2));

    // OrderHistoryRS: the items cancelled (the item, CANCELLED, by the seller), then the refund (by the carrier).
    const h = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
    expect(h.status).toBe(200);
    const ops = blocks(h.body, "ChangeOperation");
    const cancelled = ops.find((b) => b.includes("ITEMS_CANCELLED"))!;
    // Its Old and New are the whole order before and after (decision 0022): New lacks exactly the extra.
    const now = new Set(all(blocks(cancelled, "New")[0]!, "opt:OrderItemID"));
    expect(all(blocks(cancelled, "Old")[0]!, "opt:OrderItemID").filter((id) => !now.has(id))).toEqual([extra.orderItemId]);
    expect(cancelled).toContain("CANCELLED");
    expect(ops.at(-1)).toContain("REFUNDED");

    // The same quote again (another TrxID): the same operation, nothing written or paid again.
    const again = await countWrites(() => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.result.quoteId, { trxId: "later" })));
    expect(again.result.status).toBe(200);
    expect(again.gateway + again.psp).toBe(0);
    // The order moved on: another quote for the same item names an item no longer there.
    const gone = await t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [extra.orderItemId]));
    expect(errorCode(gone.body)).toBe("request_invalid");
  }, 60_000);

  test("20 concurrent commits of one quote (any TrxID) refund once", async () => {
    const { orderId, extra } = await withExtra("XI2");
    const q = await quoteItems(t, orderId, [extra.orderItemId]);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { trxId: `trx-${i % 4}` }))));
    for (const r of replies) expect(r.status).toBe(200);
    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(extra.totalMinor);
    const entries = await t.gw.store.db.select().from(tables.paymentLedgerEntries).where(eq(tables.paymentLedgerEntries.orderId, orderId));
    expect(entries.filter((e) => e.type === "refund")).toHaveLength(1);
    const psp = await t.gw.store.db.select().from(tables.pspSimPayments).where(inArray(tables.pspSimPayments.pspReference, legs.map((l) => l.pspReference!)));
    expect(psp.reduce((s, p) => s + p.refunded, 0)).toBe(extra.totalMinor);
    const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
    expect(after.history.filter((h) => h.kind === "items_cancelled")).toHaveLength(1);
    expect(after.history.filter((h) => h.kind === "refunded")).toHaveLength(1);
  }, 60_000);

  test("a later cancellation of the whole order refunds what is left, never the cancelled extra again", async () => {
    const { orderId, extra } = await withExtra("XI3");
    const qi = await quoteItems(t, orderId, [extra.orderItemId]);
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, qi.quoteId))).status).toBe(200);
    const whole = await quote(t, orderId);
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, whole.quoteId))).status).toBe(200);
    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    for (const l of legs) expect(l.refunded).toBeLessThanOrEqual(l.captured);
    expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(extra.totalMinor + minorOf(whole.refund));
    const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
    expect(after.state).toBe("cancelled");
    expect(after.seatHolds.length).toBeGreaterThan(0);
    for (const h of after.seatHolds) for (const s of h.seatIds) expect(await liveRows(h.flightKey, s)).toEqual([]);
  }, 60_000);

  test("an items quote and a whole-order quote of the same version committed at once: one wins, the other is refused as the order now is; money back once", async () => {
    const { orderId, extra } = await withExtra("XI4");
    const [qi, qw] = await Promise.all([quoteItems(t, orderId, [extra.orderItemId]), quote(t, orderId)]);
    const [ri, rw] = await Promise.all([t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, qi.quoteId, { trxId: "race-i" })), t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, qw.quoteId, { trxId: "race-w" }))]);
    const won = [ri, rw].filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    // Either may be decided first (timing: usually the items', but under load, seen on
    // PostgreSQL, the whole order's). After the items' cancellation the whole order's quote is
    // stale; after the whole order's, the items' commit meets a cancelled order and is refused in
    // the actor's words, as every change of a cancelled order is (the actor asks the state before
    // the version: refusal-words.test.ts).
    if (ri.status === 200) expect([rw.status, errorCode(rw.body)]).toEqual([409, "cancel_quote_stale"]);
    else expect([ri.status, errorCode(ri.body)]).toEqual([409, "order_state_invalid"]);
    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    for (const l of legs) expect(l.refunded).toBeLessThanOrEqual(l.captured);
    expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(minorOf(ri.status === 200 ? qi.refund : qw.refund));
  }, 60_000);
});

describe("a refund the PSP does not answer", () => {
  test("the items are cancelled at the commit and the seller answered; the refund is left to the reconciler, and no other cancellation is committed until it is paid", async () => {
    const { orderId, extra } = await withExtra("XP1");
    const q = await quoteItems(t, orderId, [extra.orderItemId]);
    const psp = t.gw.orders.ctx.payments.psp;
    const refund = psp.refund.bind(psp);
    psp.refund = async () => {
      throw new PspTimeoutError();
    };
    try {
      const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId));
      expect(r.status).toBe(200);
      expect(all(r.body, "OrderItemID")).not.toContain(extra.orderItemId);
      expect(r.body).not.toContain("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>");
      // The whole order is quoted without the promised refund, and not committed while it is unpaid.
      const whole = await quote(t, orderId);
      const refused = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, whole.quoteId));
      expect(errorCode(refused.body)).toBe("order_state_invalid");
      expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).state).toBe("booked");
    } finally {
      psp.refund = refund;
    }
    const rep = await t.gw.orders.reconcile(clock.now(), { minAgeMs: 0 });
    expect(rep.failed).toEqual([]);
    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(extra.totalMinor);
    const whole = await quote(t, orderId);
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, whole.quoteId))).status).toBe(200);
    const after = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    for (const l of after) expect(l.refunded).toBeLessThanOrEqual(l.captured);
    expect(after.reduce((s, l) => s + l.refunded, 0)).toBe(extra.totalMinor + minorOf(whole.refund));
  }, 60_000);
});

describe("one seat of a hold shared with another passenger's seat", () => {
  test("cancelled alone: in one write the seat is free to every channel, the other stays sold; the web shop can buy the freed seat, not the kept one", async () => {
    const { orderId, order } = await bookCancellable(t, "XS1", { pax: 2 });
    const seats = order.items.filter((i) => i.kind === "seat");
    expect(seats).toHaveLength(2);
    expect(order.seatHolds).toHaveLength(1);
    expect(order.seatHolds[0]!.seatIds).toHaveLength(2);
    const [gone, kept] = [seats.find((i) => i.paxIds[0] === "PAX1")!, seats.find((i) => i.paxIds[0] === "PAX2")!];
    const flightKey = gone.flightKeys![0]!;

    const q = await quoteItems(t, orderId, [gone.orderItemId]);
    expect(minorOf(q.refund)).toBe(gone.totalMinor);
    const w = await countWrites(() => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId)));
    expect(w.result.status).toBe(200);
    expect(w.gateway).toBe(2);
    expect(await liveRows(flightKey, gone.ref!)).toEqual([]);
    expect(await liveRows(flightKey, kept.ref!)).toEqual([{ holder: orderId, status: "sold" }]);

    const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
    expect(after.items.filter((i) => i.kind === "seat").map((i) => i.ref)).toEqual([kept.ref]);
    expect(after.seatHolds.flatMap((h) => h.seatIds)).toEqual([kept.ref!]);
    expect(after.seatHolds[0]!.holdId).not.toBe(order.seatHolds[0]!.holdId);

    const shop = new WebShopChannel(t.gw.orders.ctx.inventory);
    await expect(shop.sellSeat(flightKey, kept.ref!)).rejects.toMatchObject({ code: "seat_unavailable" });
    const sold = await shop.sellSeat(flightKey, gone.ref!);
    expect(sold.status).toBe("sold");
    expect(await liveRows(flightKey, gone.ref!)).toHaveLength(1);

    // A later cancellation of the whole order releases the kept seat too.
    const whole = await quote(t, orderId);
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, whole.quoteId))).status).toBe(200);
    expect(await liveRows(flightKey, kept.ref!)).toEqual([]);
    const rows = await t.gw.store.db.select().from(tables.seatInventory).where(and(eq(tables.seatInventory.flightKey, flightKey), eq(tables.seatInventory.holder, orderId)));
    expect(rows.every((r) => r.status === "released")).toBe(true);
  }, 60_000);

  test("20 concurrent commits refund the seat once and keep the other seat sold", async () => {
    const { orderId, order } = await bookCancellable(t, "XS2", { pax: 2 });
    const gone = order.items.find((i) => i.kind === "seat" && i.paxIds[0] === "PAX2")!;
    const kept = order.items.find((i) => i.kind === "seat" && i.paxIds[0] === "PAX1")!;
    const q = await quoteItems(t, orderId, [gone.orderItemId]);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { trxId: `s-${i}` }))));
    for (const r of replies) expect(r.status).toBe(200);
    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(gone.totalMinor);
    const flightKey = gone.flightKeys![0]!;
    expect(await liveRows(flightKey, kept.ref!)).toEqual([{ holder: orderId, status: "sold" }]);
    expect(await liveRows(flightKey, gone.ref!)).toEqual([]);
  }, 60_000);
});

describe("refusals", () => {
  test("the flight item alone is not cancelled (the whole order or a flight change); an unknown item and RetainServiceID are refused (RespendInd true quotes: cancel-items-respend.test.ts)", async () => {
    const { orderId, order } = await bookCancellable(t, "XR1");
    const flight = order.items.find((i) => i.kind === "flight")!;
    const r = await t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [flight.orderItemId]));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("cancel_items_not_supported");
    const unknown = await t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [`${orderId}-00000000`]));
    expect(errorCode(unknown.body)).toBe("request_invalid");
    const seat = order.items.find((i) => i.kind === "seat")!;
    const twice = await t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [seat.orderItemId, seat.orderItemId]));
    expect(errorCode(twice.body)).toBe("request_invalid");
    const respend = cancelItemsRQ(orderId, [seat.orderItemId], { extra: "<cns:RespendInd>true</cns:RespendInd>" });
    assertSchemaValid(respend);
    expect((await t.ndc("OrderReshopRQ", respend)).status).toBe(200);
    const retain = cancelItemsRQ(orderId, [seat.orderItemId], { extra: "<cns:RetainServiceID>SRV-1</cns:RetainServiceID>" });
    assertSchemaValid(retain);
    expect(errorCode((await t.ndc("OrderReshopRQ", retain)).body)).toBe("change_not_supported");
    expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).version).toBe(order.version);
  }, 60_000);

  // A seller refused by a SAVER fare, whole or in part: cancel-staff.test.ts (beside the staff's override).
  test("forged, altered, another order's, another seller's, stale and expired quotes", async () => {
    const { orderId, order } = await bookCancellable(t, "XR3", { pax: 2 });
    const [a, b] = order.items.filter((i) => i.kind === "seat");
    const q = await quoteItems(t, orderId, [a!.orderItemId]);
    const parts = q.quoteId.split(".");
    const richer = [parts[0], parts[1], String(Number(parts[2]) + 10_000), ...parts.slice(3)].join(".");
    for (const forged of [richer, `${q.quoteId.slice(0, -2)}AA`, "CIQ.nonsense"]) {
      const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, forged));
      expect(errorCode(r.body)).toBe("cancel_quote_invalid");
    }
    const { orderId: otherId } = await bookCancellable(t, "XR4");
    expect(errorCode((await t.ndc("OrderChangeRQ", acceptCancelRQ(otherId, q.quoteId))).body)).toBe("cancel_quote_invalid");
    const rival = await otherSeller(t, "AGY-XITEMS");
    expect(errorCode((await ndcAs(t, rival, "OrderReshopRQ", cancelItemsRQ(orderId, [a!.orderItemId]))).body)).toBe("order_not_found");
    expect(errorCode((await ndcAs(t, rival, "OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId))).body)).toBe("order_not_found");
    // Another quote accepted first moves the order on: the first is stale.
    const qb = await quoteItems(t, orderId, [b!.orderItemId]);
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, qb.quoteId))).status).toBe(200);
    const stale = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId));
    expect(errorCode(stale.body)).toBe("cancel_quote_stale");
    const fresh = await quoteItems(t, orderId, [a!.orderItemId]);
    clock.advance(15 * 60_000 + 1000);
    const late = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, fresh.quoteId));
    expect(late.status).toBe(410);
    expect(errorCode(late.body)).toBe("cancel_quote_expired");
  }, 90_000);
});
