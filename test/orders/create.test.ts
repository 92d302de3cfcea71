import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readMaskedDocuments } from "@ndc/pii";
import { boot, card, code, footprint, freeSeats, orderInput, settlement, shop, tempDir, voucher, type Booted, SELLER } from "./helpers";

let b: Booted;
const tmp = tempDir();
let seats: string[];

beforeAll(async () => {
  b = await boot(tmp.url);
  seats = freeSeats(b.supply);
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

describe("OrderCreate", () => {
  test("with legs: booked, holds sold, every leg captured, commission on the total with surcharge", async () => {
    const s = await shop(b, { tag: "paid", seats: [seats[0]!, seats[1]!], partners: ["PP-ESIM"], pax: 2, surcharge: 500 });
    const input = { ...orderInput("paid", s, { pax: 2, payment: [card(s.total - 10_000), settlement(10_000)] }), commissionAgreement: { kind: "percentage" as const, basisPoints: 500 } };
    const order = await b.orders.create(input);
    expect(order.state).toBe("booked");
    expect(order.totalMinor).toBe(s.total);
    expect(order.commission).toEqual({ amountMinor: Math.round(s.total * 0.05), basisMinor: s.total, rule: "percentage 5.00%" });
    expect(order.adjustments).toEqual([{ offerId: s.flightOfferId, offerItemId: `${s.flightOfferId}-ADT`, ruleId: "R-SUR", effect: "surcharge", minor: 500 }]);
    expect(order.inventoryConfirmed).toBe(true);
    expect(order.legs.map((l) => l.state)).toEqual(["captured", "captured"]);
    expect(order.paymentTimeLimit).toBeUndefined();
    const f = await footprint(b.store, order.orderId);
    expect(f.seats).toEqual([{ seat_id: seats[0]!, status: "sold" }, { seat_id: seats[1]!, status: "sold" }].sort((x, y) => x.seat_id.localeCompare(y.seat_id)));
    expect(f.partners).toEqual([{ product_code: "PP-ESIM", status: "sold" }]);
    expect(f.legs.map((l) => l.state)).toEqual(["captured", "captured"]);
    expect(f.order).toEqual({ state: "booked", version: order.version });
    // created, inventory confirmed, payment captured
    expect(order.history.map((h) => [h.version, h.kind])).toEqual([[1, "created"], [2, "inventory_confirmed"], [3, "payment_captured"]]);
  });

  test("the same request again returns the same order and takes nothing twice", async () => {
    const s = await shop(b, { tag: "again", seats: [seats[2]!] });
    const input = orderInput("again", s, { payment: [card(s.total)] });
    const first = await b.orders.create(input);
    const second = await b.orders.create(input);
    expect(second.orderId).toBe(first.orderId);
    expect(second.version).toBe(first.version);
    const f = await footprint(b.store, first.orderId);
    expect(f.legs).toHaveLength(1);
    expect(await code(b.orders.create({ ...input, contact: { email: "other@example.com" } }))).toBe("idempotency_conflict");
  });

  test("without legs: held unpaid (ORDWPM) with a 24 h payment time limit, seats held until then", async () => {
    const s = await shop(b, { tag: "unpaid", seats: [seats[3]!] });
    const order = await b.orders.create(orderInput("unpaid", s));
    expect(order.state).toBe("held_unpaid");
    expect(order.paymentTimeLimit).toBe(b.clock.now() + 24 * 3_600_000);
    expect(order.legs).toEqual([]);
    const f = await footprint(b.store, order.orderId);
    expect(f.seats).toEqual([{ seat_id: seats[3]!, status: "held" }]);
  });

  test("a decline voids every authorised leg and holds the order within its time limit; a retry books it", async () => {
    const s = await shop(b, { tag: "declined", seats: [seats[4]!] });
    const order = await b.orders.create(orderInput("declined", s, { payment: [voucher(5_000), card(s.total - 5_000, "tok_decline")] }));
    expect(order.state).toBe("held_payment_declined");
    expect(order.declineCode).toBe("payment_declined");
    expect(order.paymentTimeLimit).toBeDefined();
    let f = await footprint(b.store, order.orderId);
    expect(f.legs.map((l) => [l.kind, l.state])).toEqual([["voucher", "voided"], ["card", "declined"]]);
    expect(f.seats).toEqual([{ seat_id: seats[4]!, status: "held" }]);

    // declined again: still held, the time limit does not move
    const again = await b.orders.retryPayment(order.orderId, SELLER, [card(s.total, "tok_decline_insufficient_funds")], "retry-1");
    expect(again.state).toBe("held_payment_declined");
    expect(again.paymentTimeLimit).toBe(order.paymentTimeLimit);

    const paid = await b.orders.retryPayment(order.orderId, SELLER, [card(s.total)], "retry-2");
    expect(paid.state).toBe("booked");
    expect(paid.paymentTimeLimit).toBeUndefined();
    f = await footprint(b.store, order.orderId);
    expect(f.seats).toEqual([{ seat_id: seats[4]!, status: "sold" }]);
    expect(f.legs.filter((l) => l.state === "captured")).toHaveLength(1);
    expect(f.legs.some((l) => l.state === "authorised" || l.state === "authorising")).toBe(false);
    // a retry of the same attempt is answered with the same booked order; paying twice is refused
    expect((await b.orders.retryPayment(order.orderId, SELLER, [card(s.total)], "retry-2")).version).toBe(paid.version);
    expect(await code(b.orders.retryPayment(order.orderId, SELLER, [card(s.total)], "retry-3"))).toBe("order_state_invalid");
  });

  test("past the payment time limit: retry refused, expiry cancels and releases the holds", async () => {
    const s = await shop(b, { tag: "expiring", seats: [seats[5]!], partners: ["PP-CO2"] });
    const order = await b.orders.create(orderInput("expiring", s));
    expect(await b.orders.expireUnpaid(order.paymentTimeLimit! - 1)).not.toContain(order.orderId);
    b.clock.set(order.paymentTimeLimit!);
    try {
      expect(await code(b.orders.retryPayment(order.orderId, SELLER, [card(s.total)], "late"))).toBe("payment_time_limit_passed");
      expect(await b.orders.expireUnpaid(b.clock.now())).toContain(order.orderId);
      const after = await b.orders.retrieve(order.orderId, SELLER);
      expect(after.state).toBe("cancelled");
      expect(after.history.at(-1)!.kind).toBe("payment_expired");
      const f = await footprint(b.store, order.orderId);
      expect(f.seats).toEqual([]);
      expect(f.partners).toEqual([]);
      expect(await b.orders.expireUnpaid(b.clock.now())).not.toContain(order.orderId);
    } finally {
      b.clock.set(order.createdAt);
    }
  });

  test("a partner product needs a contact email and is sold once per order", async () => {
    const s = await shop(b, { tag: "noemail", partners: ["PP-INSURANCE"] });
    expect(await code(b.orders.create(orderInput("noemail", s, { email: null })))).toBe("partner_product_needs_email");
    const twice = await shop(b, { tag: "twice", partners: ["PP-INSURANCE", "PP-INSURANCE"] });
    expect(await code(b.orders.create(orderInput("twice", twice)))).toBe("partner_product_once_per_order");
    const stock = await b.inventory.partnerStock("PP-INSURANCE");
    expect(stock.held + stock.sold).toBe(0);
  });

  test("a seat is sold once: the second order is refused and holds nothing", async () => {
    const one = await shop(b, { tag: "seat-1", seats: [seats[6]!] });
    const two = await shop(b, { tag: "seat-2", seats: [seats[6]!] });
    const first = await b.orders.create(orderInput("seat-1", one, { payment: [card(one.total)] }));
    expect(first.state).toBe("booked");
    const input = orderInput("seat-2", two, { payment: [card(two.total)] });
    expect(await code(b.orders.create(input))).toBe("seat_unavailable");
    const { orderIds } = await import("@ndc/orders");
    const lost = orderIds.order(orderIds.createSaga(input.seller.clientId, input.correlationId, input.trxId));
    const f = await footprint(b.store, lost);
    expect([f.seats, f.partners, f.legs]).toEqual([[], [], []]);
    expect(f.order).toBeUndefined();
  });

  test("refusals before anything is taken: card data, legs not paying the total, more than four legs, bad documents, another seller's offer", async () => {
    const s = await shop(b, { tag: "refusals" });
    expect(await code(b.orders.create(orderInput("r1", s, { payment: [{ kind: "card", token: "4111 1111 1111 1111", amount: { amount: s.total, currency: "EUR" } }] })))).toBe("card_data_refused");
    expect(await code(b.orders.create(orderInput("r2", s, { payment: [card(s.total - 1)] })))).toBe("payment_legs_invalid");
    expect(await code(b.orders.create(orderInput("r3", s, { payment: [1, 2, 3, 4, 5].map(() => card(s.total / 5)) })))).toBe("payment_legs_invalid");
    const bad = orderInput("r4", s);
    bad.passengers[0]!.identityDocs = [{ IdentityDocTypeCode: "711", IdentityDocID: "X1", Surname: "LOVELACE" }];
    expect(await code(b.orders.create(bad))).toBe("identity_document_type_unknown");
    const other = await shop(b, { tag: "theirs", seller: { clientId: "c2", agencyId: "OTHER" } });
    expect(await code(b.orders.create(orderInput("r5", other)))).toBe("offer_not_found");
    expect(await code(b.orders.create({ ...orderInput("r6", s), selections: [{ offerId: s.flightOfferId, ownerCode: "ZZ" }] }))).toBe("offer_not_found");
  });

  test("identity documents are stored encrypted with the order and read back masked", async () => {
    const s = await shop(b, { tag: "docs", pax: 2 });
    const order = await b.orders.create(orderInput("docs", s, { pax: 2, docs: true }));
    expect(order.passengers.map((p) => p.documentIds.length)).toEqual([1, 1]);
    const masked = await readMaskedDocuments(b.store.db, order.orderId);
    expect(masked).toHaveLength(2);
    expect(JSON.stringify(masked)).not.toContain("ZQ9X8W7V6U5");
    const journal = (await b.store.db.all(
      (await import("drizzle-orm")).sql`SELECT payload FROM actor_journal WHERE kind = 'orders.order' AND key = ${order.orderId}`,
    )) as { payload: string }[];
    expect(journal.length).toBeGreaterThan(0);
    expect(journal.map((j) => j.payload).join("")).not.toContain("ZQ9X8W7V6U5");
    const sagas = (await b.store.db.all((await import("drizzle-orm")).sql`SELECT plan FROM operations`)) as { plan: string }[];
    expect(sagas.map((x) => x.plan).join("")).not.toContain("ZQ9X8W7V6U5");
  });
});
