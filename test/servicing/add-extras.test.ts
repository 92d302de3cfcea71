import { afterAll, beforeAll, expect, test } from "bun:test";
import { putCommissionAgreement, SANDBOX_COMMISSION, type CommissionAgreement } from "@ndc/payments";
import { errorCode } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { all, blocks, book, card, FARE_MINOR, orderHistoryRQ, OTHER, start, type Ctx } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor, seatsFor } from "./add-helpers";

/**
 * ORDRE2 over HTTP: airline extras and a seat bought on a booked order with OrderChangeRQ, from
 * the offers ServiceListRQ and SeatAvailabilityRQ issued for the order; the charge authorised
 * before the change, captured after, voided when the change is not made; commission per SHPOR1
 * rule 6. Every request is checked against IATA_OrderChangeRQ.xsd, every answer against its
 * XSD (test/support/gateway.ts).
 */
// Each test books over HTTP: an explicit budget, so a loaded machine does not fail it on Bun's 5 s default.
let c: Ctx;
beforeAll(async () => {
  c = await start();
}, 30_000);
afterAll(() => c.t.close());

const change = (xml: string) => {
  assertSchemaValid(xml);
  return c.t.ndc("OrderChangeRQ", xml);
};

test("extras added to a booked order: items on the order, the charge captured on its own leg, the total raised", async () => {
  const order = await book(c, { tag: "AX1", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.paxIds.includes("PAX1"))!;
  const r = await change(addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty: 2 }], [{ card: "tok_approve_visa", minor: 2 * item.unitMinor }]));
  expect(r.status).toBe(200);
  expect(r.body).toContain("<IATA_OrderViewRS");
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  expect(after.state).toBe("booked");
  const added = after.items.filter((i) => i.offerId === listed.offerId);
  expect(added).toHaveLength(1);
  expect(added[0]!.qty).toBe(2);
  expect(after.totalMinor).toBe(FARE_MINOR + 2 * item.unitMinor);
  expect(all(r.body, "OrderItemID")).toContain(added[0]!.orderItemId);
  const charge = after.charges![0]!;
  expect(charge.amountMinor).toBe(2 * item.unitMinor);
  const legs = after.legs.filter((l) => l.changeRef === charge.changeRef);
  expect(legs.map((l) => [l.state, l.amountMinor])).toEqual([["captured", 2 * item.unitMinor]]);
  // OrderHistoryRS: the creation as it was (its items, its total), then the change with its item.
  const history = await c.t.ndc("OrderHistoryRQ", orderHistoryRQ(order.orderId));
  expect(history.status).toBe(200);
  const ops = blocks(history.body, "ChangeOperation");
  expect(all(ops[0]!, "OrderItemID")).not.toContain(added[0]!.orderItemId);
  expect(ops[0]!).toContain(`<opt:TotalAmount CurCode="EUR">${(FARE_MINOR / 100).toFixed(2)}</opt:TotalAmount>`);
  // Its Old and New are the whole order before and after: New has exactly the added item more.
  const addedOp = ops.find((o) => o.includes("ITEMS_ADDED"))!;
  const before = new Set(all(blocks(addedOp, "Old")[0]!, "opt:OrderItemID"));
  expect(all(blocks(addedOp, "New")[0]!, "opt:OrderItemID").filter((id) => !before.has(id))).toEqual([added[0]!.orderItemId]);
  // The same request again is the same change: answered, nothing charged or added twice.
  const again = await change(addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty: 2 }], [{ card: "tok_approve_visa", minor: 2 * item.unitMinor }]));
  expect(again.status).toBe(200);
  const same = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  expect(same.items).toHaveLength(after.items.length);
  expect(same.legs.filter((l) => l.state === "captured")).toHaveLength(2);
  // A second capture for this change is refused by the ledger.
  const ledgerLegs = await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId);
  const leg = ledgerLegs.find((l) => l.changeRef === charge.changeRef)!;
  expect(leg.state).toBe("captured");
  await expect(c.t.gw.orders.ctx.payments.captureAll(order.orderId, "another-key", { legIds: [leg.legId] })).rejects.toMatchObject({ code: "payment_already_captured" });
}, 30_000);

test("a seat bought for one passenger on one flight: sold in inventory, on the order, paid", async () => {
  const order = await book(c, { tag: "AX2", payment: [card(FARE_MINOR)] });
  const { offerId, seats } = await seatsFor(c.t, order.orderId);
  const [seatId, item] = [...seats].find(([, i]) => i.unitMinor > 0)!;
  const r = await change(addRQ(order.orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { correlationId: "corr-seat" }));
  expect(r.status).toBe(200);
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  const seat = after.items.find((i) => i.kind === "seat")!;
  expect(seat.ref).toBe(seatId);
  const flightKey = seat.flightKeys![0]!;
  const inv = await c.t.gw.inventory.seatAvailability(flightKey);
  expect(inv.seats.find((s) => s.seatId === seatId)?.status).toBe("sold");
  expect(after.seatHolds.find((h) => h.seatIds.includes(seatId))).toBeDefined();
}, 30_000);

test("a seat and extras in one message, a SelectedSeat that is not the item's seat: refused, nothing taken", async () => {
  const order = await book(c, { tag: "AX3", payment: [card(FARE_MINOR)] });
  const { offerId, seats } = await seatsFor(c.t, order.orderId);
  const [[seatA, a], [, b]] = [...seats];
  const two = await change(addRQ(order.orderId, offerId, [{ offerItemId: a!.offerItemId, paxId: "PAX1", seat: seatA! }, { offerItemId: b!.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: a!.unitMinor + b!.unitMinor }]));
  expect(two.status).toBe(400);
  expect(errorCode(two.body)).toBe("request_invalid");
  const wrong = await change(addRQ(order.orderId, offerId, [{ offerItemId: b!.offerItemId, paxId: "PAX1", seat: seatA! }], [{ card: "tok_approve_visa", minor: b!.unitMinor }], { trxId: "wrong" }));
  expect(wrong.status).toBe(400);
  expect(errorCode(wrong.body)).toBe("request_invalid");
  expect(wrong.body).toContain("SelectedSeat");
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  expect(after.items).toHaveLength(order.items.length);
  expect(after.legs).toHaveLength(1);
}, 30_000);

test("a declined charge: the change is not made, nothing stays held or authorised; the same ids again are refused (voided reference)", async () => {
  const order = await book(c, { tag: "AX4", payment: [card(FARE_MINOR)] });
  const { offerId, seats } = await seatsFor(c.t, order.orderId);
  const [seatId, item] = [...seats].find(([, i]) => i.unitMinor > 0)!;
  const rq = addRQ(order.orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_decline", minor: item.unitMinor }], { correlationId: "corr-decl" });
  const r = await change(rq);
  expect(r.status).toBe(402);
  expect(errorCode(r.body)).toBe("payment_declined");
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  expect(after.items).toHaveLength(order.items.length);
  expect(after.totalMinor).toBe(FARE_MINOR);
  const flightKey = order.journeys[0]!.flightKeys[0]!;
  expect((await c.t.gw.inventory.seatAvailability(flightKey)).seats.find((s) => s.seatId === seatId)?.status ?? "free").not.toMatch(/held|sold/);
  const legs = await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId);
  expect(legs.filter((l) => l.state === "authorised" || l.state === "authorising")).toHaveLength(0);
  const late = await change(rq);
  expect(late.status).toBe(409);
  expect(errorCode(late.body)).toBe("payment_leg_voided");
}, 30_000);

test("commission on the charge (SHPOR1 rule 6): a percentage on the charge's own amount; flat and foreign tiered agreements refuse the change", async () => {
  const agency = c.seller.agencyId;
  const agree = (a: CommissionAgreement) => c.t.gw.store.write((tx) => putCommissionAgreement(tx, agency, a, Date.UTC(2026, 0, 1)));
  const order = await book(c, { tag: "AX5", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.paxIds.includes("PAX1") && i.unitMinor > 0)!;
  const buy = (trxId: string) => change(addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { trxId }));
  try {
    await agree({ kind: "flat", amount: { amount: 500, currency: "EUR" as never } });
    const flat = await buy("flat");
    expect(flat.status).toBe(409);
    expect(errorCode(flat.body)).toBe("commission_rule_not_applicable");
    await agree({ kind: "tiered", currency: "GBP", tiers: [{ from: 0, basisPoints: 300 }] });
    const tiered = await buy("tiered");
    expect(errorCode(tiered.body)).toBe("commission_rule_not_applicable");
    // Nothing was charged by either refusal.
    expect((await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId)).length).toBe(1);
    await agree({ kind: "percentage", basisPoints: 1000 });
    const ok = await buy("pct");
    expect(ok.status).toBe(200);
    const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
    expect(after.charges![0]!.commission).toEqual({ amountMinor: Math.round(item.unitMinor / 10), basisMinor: item.unitMinor, rule: "percentage 10.00%" });
  } finally {
    await agree(SANDBOX_COMMISSION);
  }
}, 30_000);

test("an offer not issued for this order, another seller's order, a held order: refused, nothing charged", async () => {
  const mine = await book(c, { tag: "AX6", payment: [card(FARE_MINOR)] });
  const other = await book(c, { tag: "AX7", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, other.orderId);
  const item = listed.items[0]!;
  const r = await change(addRQ(mine.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
  expect(r.status).toBe(404);
  expect(errorCode(r.body)).toBe("offer_not_found");
  const theirs = await book(c, { tag: "AX8", seller: OTHER, payment: [card(FARE_MINOR)] });
  const notMine = await change(addRQ(theirs.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: item.unitMinor }]));
  expect(notMine.status).toBe(404);
  expect(errorCode(notMine.body)).toBe("order_not_found");
  const held = await book(c, { tag: "AX9" });
  const heldList = await extrasFor(c.t, held.orderId);
  const h = await change(addRQ(held.orderId, heldList.offerId, [{ offerItemId: heldList.items[0]!.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: heldList.items[0]!.unitMinor }]));
  expect(h.status).toBe(409);
  expect(errorCode(h.body)).toBe("order_state_invalid");
  for (const id of [mine.orderId, theirs.orderId, held.orderId]) expect((await c.t.gw.orders.ctx.payments.ledger.legs(id)).every((l) => l.changeRef === "sale")).toBe(true);
  expect(blocks(r.body, "Error")).toHaveLength(1);
}, 30_000);

test("the same CorrelationID and TrxID for another change: idempotency_conflict, nothing charged", async () => {
  const a = await book(c, { tag: "AXA", payment: [card(FARE_MINOR)] });
  const b = await book(c, { tag: "AXB", payment: [card(FARE_MINOR)] });
  const la = await extrasFor(c.t, a.orderId);
  const lb = await extrasFor(c.t, b.orderId);
  const ids = { correlationId: "corr-same", trxId: "trx-same" };
  const first = await change(addRQ(a.orderId, la.offerId, [{ offerItemId: la.items[0]!.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: la.items[0]!.unitMinor }], ids));
  expect(first.status).toBe(200);
  const second = await change(addRQ(b.orderId, lb.offerId, [{ offerItemId: lb.items[0]!.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: lb.items[0]!.unitMinor }], ids));
  expect(second.status).toBe(409);
  expect(errorCode(second.body)).toBe("idempotency_conflict");
  expect((await c.t.gw.orders.ctx.payments.ledger.legs(b.orderId)).every((l) => l.changeRef === "sale")).toBe(true);
}, 30_000);
