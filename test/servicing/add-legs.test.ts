import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ALaCartePayload } from "@ndc/shopping";
import { errorCode } from "../support/gateway";
import { book, card, FARE_MINOR, start, type Ctx } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor } from "./add-helpers";

/**
 * A post-sale charge paid with every leg kind of the sale (spec 3: card token, voucher,
 * settlement plan, loyalty points), mixed in one change: each authorised before the change,
 * captured after. And a ride or partner product is never sold post-sale (not_sold_post_sale),
 * even from an offer tied to the order, with nothing held or charged.
 */
let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

test("extras paid by a voucher, the settlement plan, loyalty points and a card together: every leg captured", async () => {
  const order = await book(c, { tag: "LG1", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = [...listed.items].sort((a, b) => b.unitMinor - a.unitMinor)[0]!;
  const qty = Math.max(1, Math.ceil(400 / item.unitMinor));
  const total = qty * item.unitMinor;
  const [v, s, l] = [100, 100, 100];
  // The settlement plan names the selling agency by its IATA number (the sandbox agency's).
  const r = await c.t.ndc(
    "OrderChangeRQ",
    addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty }], [
      { kind: "voucher", code: "VCH-SANDBOX-EUR-0100", amountMinor: v },
      { kind: "settlement", method: "CA", amountMinor: s },
      { kind: "loyalty", account: "XB1000000001", certificate: "900000000001", amountMinor: l },
      { card: "tok_approve_visa", minor: total - v - s - l },
    ]).replace("<cns:PaymentTypeCode>CA</cns:PaymentTypeCode>", "<cns:IATA_Number>99999999</cns:IATA_Number><cns:PaymentTypeCode>CA</cns:PaymentTypeCode>"),
  );
  expect(r.status).toBe(200);
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  const ref = after.charges![0]!.changeRef;
  const legs = (await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId)).filter((x) => x.changeRef === ref);
  expect(legs.map((x) => [x.kind, x.state]).sort()).toEqual([["card", "captured"], ["loyalty", "captured"], ["settlement", "captured"], ["voucher", "captured"]]);
  expect(after.legs.filter((x) => x.changeRef === ref).every((x) => x.state === "captured")).toBe(true);
});

test("a voucher that does not cover its leg: the change is not made, the other legs voided", async () => {
  const order = await book(c, { tag: "LG2", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = [...listed.items].sort((a, b) => b.unitMinor - a.unitMinor)[0]!;
  const qty = Math.ceil(3_000 / item.unitMinor);
  const total = qty * item.unitMinor;
  const r = await c.t.ndc("OrderChangeRQ", addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty }], [{ card: "tok_approve_visa", minor: total - 2_600 }, { kind: "voucher", code: "VCH-SANDBOX-EUR-0025", amountMinor: 2_600 }]));
  expect(r.status).toBe(402);
  expect(errorCode(r.body)).toBe("voucher_insufficient");
  const after = await c.t.gw.orders.retrieve(order.orderId, c.seller);
  expect(after.items).toHaveLength(order.items.length);
  const legs = await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId);
  expect(legs.filter((x) => x.changeRef !== "sale").map((x) => x.state).sort()).toEqual(["declined", "voided"]);
});

test("a ride or a partner product from an offer tied to the order: not_sold_post_sale, nothing charged", async () => {
  const order = await book(c, { tag: "LG3", payment: [card(FARE_MINOR)] });
  for (const kind of ["ride", "partner_product"] as const) {
    const offerId = `ALC-TEST-${kind}`;
    const payload: ALaCartePayload = { kind: "a_la_carte", currency: "EUR", language: "en", flightOfferId: order.orderId, items: [{ offerItemId: `${offerId}-1`, kind, paxIds: ["PAX1"], totalMinor: 1_500, unitMinor: 1_500, ref: "PP-LOUNGE" }] };
    await c.repo.save([{ offerId, source: "service_list", owner: c.seller, createdAt: c.clock.now(), expiresAt: c.clock.now() + 30 * 60_000, payload }]);
    const r = await c.t.ndc("OrderChangeRQ", addRQ(order.orderId, offerId, [{ offerItemId: `${offerId}-1`, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: 1_500 }], { trxId: kind }));
    expect(r.status).toBe(409);
    expect(errorCode(r.body)).toBe("not_sold_post_sale");
  }
  expect((await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId)).every((x) => x.changeRef === "sale")).toBe(true);
});

test("a PSP that times out after authorising: the change asks it by key, is made and captured once, never charged twice", async () => {
  const order = await book(c, { tag: "LG4", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const rq = addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_timeout_after_success", minor: item.unitMinor }]);
  const r = await c.t.ndc("OrderChangeRQ", rq);
  expect(r.status).toBe(200);
  expect((await c.t.ndc("OrderChangeRQ", rq)).status).toBe(200);
  const legs = (await c.t.gw.orders.ctx.payments.ledger.legs(order.orderId)).filter((l) => l.changeRef !== "sale");
  expect(legs.map((l) => [l.state, l.captured])).toEqual([["captured", item.unitMinor]]);
});
