import { afterAll, beforeAll, expect, test } from "bun:test";
import { countWrites as count } from "../support/count-writes";
import { book, card, FARE_MINOR, start, type Ctx } from "../orders-http/order-list-helpers";
import { addRQ, extrasFor, seatsFor } from "./add-helpers";

/**
 * Durable writes per post-sale change (ORDRE2) over HTTP: the change's saga is OrderCreate's
 * phases (servicing/add/saga.ts), one write each: open (the new seat's hold, the operation, the
 * planned card leg), commit (the order's items and charge, the seat sold, the leg's answer),
 * close (the capture, `done`). No commit per step: these fail above 3. The simulated PSP's
 * writes (an authorisation and a capture per card leg) are counted apart. A replay writes nothing.
 */
const MAX_GATEWAY_WRITES_PER_PAID_CHANGE = 3;

let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(c.t.gw.store, c.t.gw.orders.ctx.payments.psp, fn);

test(`a seat bought on a booked order with a card: ${MAX_GATEWAY_WRITES_PER_PAID_CHANGE} gateway writes, 2 PSP writes; the replay none`, async () => {
  const order = await book(c, { tag: "CNT1", payment: [card(FARE_MINOR)] });
  const { offerId, seats } = await seatsFor(c.t, order.orderId);
  const [seatId, item] = [...seats].find(([, i]) => i.unitMinor > 0)!;
  const rq = addRQ(order.orderId, offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", seat: seatId }], [{ card: "tok_approve_visa", minor: item.unitMinor }], { correlationId: "CNT-SEAT" });
  const first = await countWrites(() => c.t.ndc("OrderChangeRQ", rq));
  expect(first.result.status).toBe(200);
  expect(first.gateway).toBe(MAX_GATEWAY_WRITES_PER_PAID_CHANGE);
  expect(first.psp).toBe(2);
  console.log(`gateway writes per paid post-sale seat: ${first.gateway} (+${first.psp} by the simulated PSP)`);
  const replay = await countWrites(() => c.t.ndc("OrderChangeRQ", rq));
  expect(replay.result.status).toBe(200);
  expect(replay.gateway + replay.psp).toBe(0);
});

test("extras paid by two card legs: the same 3 gateway writes; the PSP's are two per leg", async () => {
  const order = await book(c, { tag: "CNT2", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor >= 2)!;
  const half = Math.floor((3 * item.unitMinor) / 2);
  const rq = addRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1", qty: 3 }], [{ card: "tok_approve_visa", minor: half }, { card: "tok_approve_mastercard", minor: 3 * item.unitMinor - half }], { correlationId: "CNT-EXTRAS" });
  const w = await countWrites(() => c.t.ndc("OrderChangeRQ", rq));
  expect(w.result.status).toBe(200);
  expect(w.gateway).toBe(MAX_GATEWAY_WRITES_PER_PAID_CHANGE);
  expect(w.psp).toBe(4);
});
