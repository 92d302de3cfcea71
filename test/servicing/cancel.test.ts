import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tables } from "@ndc/store";
import { eq } from "drizzle-orm";
import { errorCode, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { gateway, orderRetrieveRQ, otherSeller, ndcAs } from "../orders-http/helpers";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import type { ManualClock } from "@ndc/clock";
import { acceptCancelRQ, bookCancellable, cancelQuoteRQ, quote, sellerOf } from "./cancel-helpers";

/**
 * Cancelling a booked order over HTTP (issue 9 item 4, docs/servicing.md): OrderReshopRQ
 * CancelOrderRef quotes, OrderChangeRQ AcceptCancelledOffer commits. Every answer is checked
 * against its 24.4 XSD by t.ndc / ndcAs (xmllint --nonet).
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

const seller = () => sellerOf(t);
const bookPaid = (tag: string, o: { legs?: number; seat?: boolean; brand?: string } = {}) => bookCancellable(t, tag, o);

describe("quote, then accept", () => {
  test("the quote states the refund, the penalty and a firm expiry; accepting it cancels, releases the seat and refunds every leg newest first", async () => {
    const { orderId, order } = await bookPaid("A", { legs: 2 });
    const q = await quote(t, orderId);
    expect(q.body).toContain("<IATA_OrderReshopRS");
    expect(q.quoteId).toStartWith(`CXQ.${orderId}.`);
    expect(new Date(q.expiry).getTime() - clock.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(all(q.body, "OrderItemRefID").sort()).toEqual(order.items.map((i) => i.orderItemId).sort());
    const refundMinor = Math.round(Number(q.refund) * 100);
    const seat = order.seatHolds[0]!;
    const seatRow = async () => (await t.gw.store.db.select().from(tables.seatInventory).where(eq(tables.seatInventory.flightKey, seat.flightKey))).filter((r) => seat.seatIds.includes(r.seatId));
    expect((await seatRow()).every((r) => r.status === "sold")).toBe(true);

    const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId));
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
    // The seat is free again for every channel, in the same write as the cancelled state.
    expect((await seatRow()).every((r) => r.status !== "sold" && r.status !== "held")).toBe(true);

    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(refundMinor);
    // Newest first: the later leg is refunded in full before the earlier one gives anything back.
    const [older, newer] = [...legs].sort((a, b) => a.seq - b.seq);
    if (refundMinor > 0) expect(newer!.refunded).toBe(Math.min(refundMinor, newer!.captured));
    if (refundMinor <= newer!.captured) expect(older!.refunded).toBe(0);

    // PAYSUM: each refunded leg as a REFUNDED entry with its amount.
    const shown = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    expect(shown.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
    const refunds = blocks(shown.body, "PaymentFunctions").filter((b) => b.includes("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>") && b.includes("Refund to"));
    expect(refunds.length).toBe(legs.filter((l) => l.refunded > 0).length);

    // OrderHistoryRS lists the cancellation and the refund.
    const h = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
    expect(h.status).toBe(200);
    const cancelGroup = blocks(h.body, "ChangeOperation").find((b) => b.includes("ORDER_CANCELLED"))!;
    expect(cancelGroup).toBeDefined();
    // Before and after (the whole order, docs/messages/OrderHistoryRQ.md): BOOKED to CANCELLED, every item cancelled.
    const orderStatus = (x: string) => /<\/opt:OrderVersionNumber><opt:OwnerCode>[^<]*<\/opt:OwnerCode><opt:StatusCode>([^<]+)</.exec(x)?.[1];
    const [after, before] = [blocks(cancelGroup, "New")[0]!, blocks(cancelGroup, "Old")[0]!];
    expect([orderStatus(after), orderStatus(before)]).toEqual(["CANCELLED", "BOOKED"]);
    const itemStatus = (x: string) => blocks(x, "opt:OrderItem").map((i) => all(i, "opt:StatusCode").at(-1));
    expect(itemStatus(after)).toEqual(order.items.map(() => "CANCELLED"));
    if (refundMinor > 0) expect(h.body).toContain("REFUNDED");
  }, 30_000); // several bookings and XSD checks: beyond bun's 5 s default on a loaded 2-core machine

  test("a refundable outbound fare (FLEX): all paid back less the engine's fee of the band (25 EUR beyond 72 h), newest leg first", async () => {
    const { orderId } = await bookPaid("FLEX", { legs: 2, brand: "FLEX" });
    const paid = (await t.gw.orders.ctx.payments.ledger.legs(orderId)).reduce((s, l) => s + l.captured, 0);
    const q = await quote(t, orderId);
    expect(q.penalty).toBe("25.00");
    expect(Math.round(Number(q.refund) * 100)).toBe(paid - 2500);
    expect(q.body).toContain("<cns:TypeCode>Cancellation</cns:TypeCode>");
    const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId));
    expect(r.status).toBe(200);
    const [older, newer] = (await t.gw.orders.ctx.payments.ledger.legs(orderId)).sort((a, b) => a.seq - b.seq);
    expect(newer!.refunded).toBe(newer!.captured);
    expect(newer!.state).toBe("refunded");
    expect(older!.refunded).toBe(older!.captured - 2500);
  }, 30_000); // several bookings and XSD checks: beyond bun's 5 s default on a loaded 2-core machine

  test("50 concurrent retries of the same commit (any TrxID) refund once", async () => {
    const { orderId } = await bookPaid("B");
    const q = await quote(t, orderId);
    const refundMinor = Math.round(Number(q.refund) * 100);
    const pspBefore = (await t.gw.store.db.select().from(tables.pspSimPayments)).length;
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { trxId: `trx-${i % 5}` }))));
    for (const r of replies) {
      expect(r.status).toBe(200);
      expect(r.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
    }
    const legs = await t.gw.orders.ctx.payments.ledger.legs(orderId);
    expect(legs.reduce((s, l) => s + l.refunded, 0)).toBe(refundMinor);
    const entries = await t.gw.store.db.select().from(tables.paymentLedgerEntries).where(eq(tables.paymentLedgerEntries.orderId, orderId));
    expect(entries.filter((e) => e.type === "refund").length).toBe(refundMinor > 0 ? 1 : 0);
    const psp = await t.gw.store.db.select().from(tables.pspSimPayments);
    expect(psp.length).toBe(pspBefore);
    const ref = legs[0]!.pspReference!;
    expect(psp.find((p) => p.pspReference === ref)!.refunded).toBe(refundMinor);
    // A retry after the end answers the cancelled order again, moving nothing.
    const again = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { trxId: "later" }));
    expect(again.status).toBe(200);
    expect((await t.gw.orders.ctx.payments.ledger.legs(orderId)).reduce((s, l) => s + l.refunded, 0)).toBe(refundMinor);
  }, 60_000);
});

describe("refusals", () => {
  test("a forged or altered quote id, another order's quote, an expired quote", async () => {
    const { orderId } = await bookPaid("C");
    const { orderId: otherId } = await bookPaid("C2");
    const q = await quote(t, orderId);
    const parts = q.quoteId.split(".");
    const richer = [...parts.slice(0, 3), String(Number(parts[3]) + 100_00), ...parts.slice(4)].join(".");
    for (const forged of [richer, `${q.quoteId.slice(0, -2)}AA`, "CXQ.nonsense"]) {
      const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, forged));
      expect(r.status).toBe(400);
      expect(errorCode(r.body)).toBe("cancel_quote_invalid");
    }
    const crossed = await t.ndc("OrderChangeRQ", acceptCancelRQ(otherId, q.quoteId));
    expect(errorCode(crossed.body)).toBe("cancel_quote_invalid");
    clock.advance(15 * 60_000 + 1000);
    const late = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId));
    expect(late.status).toBe(410);
    expect(errorCode(late.body)).toBe("cancel_quote_expired");
    expect((await t.gw.orders.retrieve(orderId, seller())).state).toBe("booked");
  }, 30_000); // several bookings and XSD checks: beyond bun's 5 s default on a loaded 2-core machine

  test("another seller's order is answered as not found, for the quote and the commit", async () => {
    const { orderId } = await bookPaid("D");
    const q = await quote(t, orderId);
    const other = await otherSeller(t, "AGY-CANCEL");
    const rq = await ndcAs(t, other, "OrderReshopRQ", cancelQuoteRQ(orderId));
    expect(errorCode(rq.body)).toBe("order_not_found");
    const rc = await ndcAs(t, other, "OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId));
    expect(errorCode(rc.body)).toBe("order_not_found");
    expect((await t.gw.orders.retrieve(orderId, seller())).state).toBe("booked");
  }, 30_000); // several bookings and XSD checks: beyond bun's 5 s default on a loaded 2-core machine

  test("the flight item cancelled alone (ServiceOrder DeleteOrderItem) is refused clearly (items: cancel-items.test.ts); a mismatched CancelOrderRef is malformed", async () => {
    const { orderId, order } = await bookPaid("E");
    const item = order.items.find((i) => i.kind === "flight")!.orderItemId;
    const request = `<cns:OrderRefID>${orderId}</cns:OrderRefID><cns:UpdateOrder><cns:ReshopOrder><cns:ReshopOrderChoice><cns:ServiceOrder><cns:DeleteOrderItem><cns:OrderItemRefID>${item}</cns:OrderItemRefID></cns:DeleteOrderItem></cns:ServiceOrder></cns:ReshopOrderChoice></cns:ReshopOrder></cns:UpdateOrder>`;
    const r = await t.ndc("OrderReshopRQ", ndcRequest("OrderReshopRQ", { request }));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("cancel_items_not_supported");
    const m = await t.ndc("OrderReshopRQ", cancelQuoteRQ(orderId, { refId: "ORD-ELSEWHERE" }));
    expect(errorCode(m.body)).toBe("request_invalid");
  }, 30_000); // several bookings and XSD checks: beyond bun's 5 s default on a loaded 2-core machine

  test("a cancelled order is not quoted or cancelled again", async () => {
    const { orderId } = await bookPaid("F");
    const q = await quote(t, orderId);
    expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId))).status).toBe(200);
    const again = await t.ndc("OrderReshopRQ", cancelQuoteRQ(orderId));
    expect(again.status).toBe(409);
    expect(errorCode(again.body)).toBe("order_state_invalid");
  }, 30_000); // several bookings and XSD checks: beyond bun's 5 s default on a loaded 2-core machine
});
