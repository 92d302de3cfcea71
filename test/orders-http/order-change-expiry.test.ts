import { afterAll, beforeAll, expect, test } from "bun:test";
import { startOrdersBackground } from "../../apps/gateway/src/background";
import { startTestGateway } from "../support/gateway";
import { book, orderHistoryRQ, orderRetrieveRQ, paymentRetryRQ, start, type Ctx } from "./order-list-helpers";

let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

async function until(check: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(10);
  }
}

test("the background pass cancels a held order once its payment time limit passes; OrderRetrieve shows Cancelled", async () => {
  const order = await book(c, { tag: "X1" });
  const before = await book(c, { tag: "X2" });
  const bg = startOrdersBackground({ orders: c.t.gw.orders, clock: c.clock, logger: c.t.gw.logger }, { everyMs: 10 });
  try {
    // Not yet due: ticks leave both orders held.
    await bg.tick();
    expect((await c.t.gw.orders.retrieve(order.orderId, c.seller)).state).toBe("held_unpaid");
    c.clock.advance(order.paymentTimeLimit! - c.clock.now());
    // One pass expires both orders one after the other: wait for the pass to reach both.
    const state = async (id: string) => (await c.t.gw.orders.retrieve(id, c.seller)).state;
    await until(async () => (await state(order.orderId)) === "cancelled" && (await state(before.orderId)) === "cancelled");
    expect(await state(before.orderId)).toBe("cancelled");
  } finally {
    await bg.stop();
  }
  const shown = await c.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(order.orderId));
  expect(shown.status).toBe(200);
  expect(shown.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
  expect((await c.t.ndc("OrderHistoryRQ", orderHistoryRQ(order.orderId))).body).toContain("<ChangeTypeCode>PAYMENT_EXPIRED</ChangeTypeCode>");
  const late = await c.t.ndc("OrderChangeRQ", paymentRetryRQ(order.orderId, "200.00", "tok_approve_visa"));
  expect(late.status).toBe(409);
  expect(c.t.logs.some((l) => l.includes("orders_background_done") && l.includes('"expired":2'))).toBe(true);
});

test("a pass never overlaps itself, and stop() waits for the pass in progress", async () => {
  const bg = startOrdersBackground({ orders: c.t.gw.orders, clock: c.clock, logger: c.t.gw.logger }, { everyMs: 60_000 });
  const a = bg.tick();
  const b = bg.tick();
  expect(a).toBe(b);
  await bg.stop();
  await a;
});

test("serve's gateway (wall clock) runs it and close() stops it; ORDERS_BACKGROUND_MS=0 turns it off", async () => {
  const on = await startTestGateway();
  expect(on.gw.background).not.toBeNull();
  await on.close();
  const off = await startTestGateway({ ORDERS_BACKGROUND_MS: "0" });
  expect(off.gw.background).toBeNull();
  await off.close();
  // An injected clock: the caller drives expiry, so nothing runs behind its back.
  expect(c.t.gw.background).toBeNull();
});
