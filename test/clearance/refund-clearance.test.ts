import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode } from "../support/gateway";
import { gateway, orderCreateRQ, orderIdOf, shopOffer, decimal } from "../orders-http/helpers";
import type { TestGateway } from "../support/gateway";
import { call, startReceiver, type Receiver } from "../notifications/helpers";
import { inAnyOrder, paymentClearanceRQ, pushesOf, textOf } from "./helpers";
import { acceptCancelRQ, quote } from "../servicing/cancel-helpers";

/**
 * Issue 19 item 13 (a, b), docs/payments.md#clearance: a settlement-plan payment refunded AFTER
 * its clearance cleared gets a refund clearance (the money back to the agency through SwO: a
 * negative NetClearanceAmount naming the order and the payment), pushed, XSD-valid and signed,
 * and cleared by the Clearance Manager; and a PaymentClearanceRQ retried under the same
 * CorrelationID and TrxID after a lost answer gets its first answer again.
 */
let t: TestGateway;
let rx: Receiver;
let key: string;
let secret: string;
beforeAll(async () => {
  ({ t } = await gateway());
  key = t.gw.sandbox!.api_key;
  rx = startReceiver();
  const sub = await call(t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["payment.clearance"] });
  expect(sub.status).toBe(201);
  secret = sub.json.secret;
}, 60_000);
afterAll(async () => {
  rx.stop();
  await t.close();
});

const run = async (job: string) => (await call(t, "POST", "/sandbox/scheduler/run", key, { job })).json.result;

async function bookSettled(tag: string, n = 0): Promise<{ orderId: string; totalMinor: number }> {
  const shopped = await shopOffer(t, { n });
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "settlement", method: "CA", amountMinor: shopped.totalMinor }], seller: t.gw.sandbox!.iata_number, correlationId: `rclr-${tag}`, trxId: `trx-${tag}` }));
  expect(r.status).toBe(200);
  return { orderId: orderIdOf(r.body), totalMinor: shopped.totalMinor };
}

/** Every clearance push of one order so far (each checked: signature, XSD), oldest first. */
async function pushes(orderId: string): Promise<string[]> {
  while ((await run("notifications.dispatch")).started > 0);
  const ids = new Set((await t.gw.store.db.all(`SELECT clearance_id FROM payment_clearances WHERE order_id = '${orderId}'`) as { clearance_id: string }[]).map((r) => r.clearance_id));
  return pushesOf(rx, "PaymentClearanceNotif", secret).filter((b) => ids.has(textOf(b, "ClearanceID")!));
}
const summary = (b: string) => [textOf(b, "StatusCode"), textOf(b, "NetClearanceAmount")];

test("refunded after clearing: the sale clearance stays cleared and a refund clearance for exactly the refund is requested (negative, naming order and payment), pushed, then cleared by the Clearance Manager", async () => {
  const { orderId, totalMinor } = await bookSettled("after");
  expect(await run("payments.clearance")).toEqual({ cleared: 1 });
  const [sale] = await pushes(orderId);
  const saleId = textOf(sale!, "ClearanceID")!;
  // The airline cancels the flight (issue 19 item 2): the cancel quote gives back everything paid.
  expect((await call(t, "POST", `/sandbox/orders/${orderId}/schedule-change`, key, { cancelFlight: true })).status).toBe(200);
  const q = await quote(t, orderId);
  expect(q.refund).toBe(decimal(totalMinor));
  expect((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: "rclr-cx" }))).status).toBe(200);

  const after = await pushes(orderId);
  expect(inAnyOrder(after.map(summary))).toEqual(inAnyOrder([["ACCPT", decimal(totalMinor)], ["FLSTL", decimal(totalMinor)], ["ACCPT", `-${decimal(totalMinor)}`]]));
  const refund = after.find((b) => textOf(b, "NetClearanceAmount") === `-${decimal(totalMinor)}`)!;
  const refundId = textOf(refund, "ClearanceID")!;
  expect(refundId).not.toBe(saleId);
  expect(refundId).toMatch(/^2026999[A-Z0-9]{8}$/);
  const [leg] = await t.gw.orders.ctx.payments.ledger.legs(orderId);
  expect([textOf(refund, "AgreementID"), textOf(refund, "CommitmentID")]).toEqual([orderId, leg!.legId]);
  const rows = (await t.gw.store.db.all(`SELECT clearance_id, status, direction, reverses, amount FROM payment_clearances WHERE order_id = '${orderId}' ORDER BY requested_at, direction DESC`)) as { clearance_id: string; status: string; direction: string; reverses: string | null; amount: number }[];
  expect(rows.map((r) => [r.direction, r.status, r.amount, r.reverses])).toEqual([["sale", "cleared", totalMinor, null], ["refund", "requested", totalMinor, saleId]]);

  // The agency does not clear the airline's refund: the Clearance Manager does.
  const asked = await t.ndc("PaymentClearanceRQ", paymentClearanceRQ({ clearanceId: refundId, amount: decimal(totalMinor), correlationId: "rclr-refund" }));
  expect([asked.status, errorCode(asked.body)]).toEqual([409, "clearance_is_refund"]);
  expect(await run("payments.clearance")).toEqual({ cleared: 1 });
  expect((await pushes(orderId)).map(summary).at(-1)).toEqual(["FLSTL", `-${decimal(totalMinor)}`]);
}, 60_000);

test("PaymentClearanceRQ retried under the same CorrelationID and TrxID after a lost answer gets the first answer, byte for byte, and clears once; another TrxID is clearance_already_cleared; the same key for another amount is idempotency_key_reused", async () => {
  const { orderId, totalMinor } = await bookSettled("retry", 1);
  const [requested] = await pushes(orderId);
  const clearanceId = textOf(requested!, "ClearanceID")!;
  const rq = paymentClearanceRQ({ clearanceId, amount: decimal(totalMinor), correlationId: "rclr-retry", trxId: "trx-1" });
  const first = await t.ndc("PaymentClearanceRQ", rq);
  expect(first.status).toBe(200);
  expect(textOf(first.body, "StatusCode")).toBe("FLSTL");
  const again = await t.ndc("PaymentClearanceRQ", rq);
  expect(again.status).toBe(200);
  expect(again.body).toBe(first.body);
  // Cleared once: one FLSTL pushed.
  expect((await pushes(orderId)).map(summary)).toEqual([["ACCPT", decimal(totalMinor)], ["FLSTL", decimal(totalMinor)]]);
  const other = await t.ndc("PaymentClearanceRQ", paymentClearanceRQ({ clearanceId, amount: decimal(totalMinor), correlationId: "rclr-retry", trxId: "trx-2" }));
  expect([other.status, errorCode(other.body)]).toEqual([409, "clearance_already_cleared"]);
  const reused = await t.ndc("PaymentClearanceRQ", paymentClearanceRQ({ clearanceId, amount: decimal(totalMinor - 1), correlationId: "rclr-retry", trxId: "trx-1" }));
  expect([reused.status, errorCode(reused.body)]).toEqual([409, "idempotency_key_reused"]);
}, 60_000);
