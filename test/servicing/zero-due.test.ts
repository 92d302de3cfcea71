import { afterAll, beforeAll, expect, test } from "bun:test";
import { countWrites as count } from "../support/count-writes";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway, orderCreateRQ, shopOffer } from "../orders-http/helpers";
import { addRQ, extrasFor, seatsFor } from "./add-helpers";
import { bookCancellable, sellerOf } from "./cancel-helpers";
import { BOOKING_TEST_MS } from "./helpers";

/**
 * Issue 20 item 2: a change that costs nothing is made. A FLEX fare's seat is priced 0.00 by
 * SeatAvailabilityRQ for the order; OrderChangeRQ buying it with no PaymentFunctions, or with
 * PaymentFunctions of 0.00 (as sellers' systems send them), takes the seat and records nothing at
 * the PSP. An amount that differs from what is due stays refused. Answers are XSD-checked by t.ndc.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);

async function freeSeat(tag: string) {
  const { orderId, order } = await bookCancellable(t, tag, { brand: "FLEX", seat: false });
  const { offerId, seats } = await seatsFor(t, orderId);
  const [seatId, item] = [...seats].find(([, i]) => i.unitMinor === 0)!;
  return { orderId, order, offerId, seatId, item };
}

test("a seat priced 0.00 taken with no PaymentFunctions: on the order, no leg, nothing at the PSP", async () => {
  const { orderId, order, offerId, seatId, item } = await freeSeat("ZERO-NONE");
  const w = await countWrites(() => t.ndc("OrderChangeRQ", addRQ(orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [])));
  expect(w.result.status).toBe(200);
  expect(w.psp).toBe(0);
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(after.items.find((i) => i.kind === "seat")?.ref).toBe(seatId);
  expect(after.legs).toHaveLength(order.legs.length);
  expect(after.totalMinor).toBe(order.totalMinor);
}, BOOKING_TEST_MS);

test("a seat priced 0.00 with PaymentFunctions of 0.00: accepted, and the zero leg records nothing", async () => {
  const { orderId, order, offerId, seatId, item } = await freeSeat("ZERO-LEG");
  const w = await countWrites(() => t.ndc("OrderChangeRQ", addRQ(orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: 0 }])));
  expect(w.result.status).toBe(200);
  expect(w.psp).toBe(0);
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(after.items.find((i) => i.kind === "seat")?.ref).toBe(seatId);
  expect(after.legs).toHaveLength(order.legs.length);
}, BOOKING_TEST_MS);

test("a free seat with a payment that is not 0.00, and a priced extra with 0.00 or nothing: payment_legs_invalid, nothing taken", async () => {
  const { orderId, offerId, seatId, item } = await freeSeat("ZERO-WRONG");
  const paid = await t.ndc("OrderChangeRQ", addRQ(orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: 500 }]));
  expect(paid.status).toBe(400);
  expect(errorCode(paid.body)).toBe("payment_legs_invalid");
  const listed = await extrasFor(t, orderId);
  const extra = listed.items.find((i) => i.paxIds.includes("PAX1") && i.unitMinor > 0)!;
  for (const legs of [[{ card: "tok_approve_visa", minor: 0 }], []]) {
    const r = await countWrites(() => t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: extra.offerItemId, paxId: "PAX1" }], legs, { correlationId: `zero-extra-${legs.length}` })));
    expect(r.result.status).toBe(400);
    expect(errorCode(r.result.body)).toBe("payment_legs_invalid");
    expect(r.psp).toBe(0);
  }
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(after.items.some((i) => i.kind === "seat")).toBe(false);
}, BOOKING_TEST_MS);

test("a booking always costs something: OrderCreateRQ paying 0.00 is payment_legs_invalid, nothing at the PSP", async () => {
  const shopped = await shopOffer(t, { n: 5 });
  const r = await countWrites(() => t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: 0 }], correlationId: "ZERO-CREATE", trxId: "T1" })));
  expect(r.result.status).toBe(400);
  expect(errorCode(r.result.body)).toBe("payment_legs_invalid");
  expect(r.psp).toBe(0);
});
