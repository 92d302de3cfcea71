import { expect } from "bun:test";
import { RECONCILE_MAX_ATTEMPTS } from "@ndc/orders";
import { PspTimeoutError } from "@ndc/payments";
import { errorCode } from "../support/gateway";
import { orderCreateRQ, orderIdOf, shopOffer } from "../orders-http/helpers";
import { addRQ, extrasFor } from "../servicing/add-helpers";
import { bookCancellable } from "../servicing/cancel-helpers";
import type { StaffWorld } from "./support";

/**
 * One open reconcile_failed item whose leg is authorised and not captured: a booked order buys an
 * extra (a card leg), and the PSP keeps timing out on captures past the reconciler's last attempt.
 * `restore` puts the PSP right again; `rq` is the seller's OrderChangeRQ (for its retry).
 */
export async function raiseCaptureItem(w: StaffWorld, tag: string, o: { cancellable?: boolean } = {}): Promise<{ orderId: string; operationId: string; rq: string; amountMinor: number; restore(): void }> {
  const psp = w.t.gw.orders.ctx.payments.psp;
  // A fare the seller may cancel when the test cancels the order afterwards.
  const orderId = o.cancellable ? (await bookCancellable(w.t, `settle-${tag}`)).orderId : await w.book(`Settle${tag}`, `P${tag}0000`);
  const listed = await extrasFor(w.t, orderId);
  const extra = listed.items.find((i) => i.unitMinor > 0)!;
  const rq = addRQ(orderId, listed.offerId, [{ offerItemId: extra.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: extra.unitMinor }], { correlationId: `corr-settle-${tag}` });
  const capture = psp.capture.bind(psp);
  psp.capture = async () => {
    throw new PspTimeoutError();
  };
  const r = await w.t.ndc("OrderChangeRQ", rq);
  expect([r.status, errorCode(r.body)]).toEqual([503, "psp_unavailable"]);
  let raised: string[] = [];
  for (let i = 0; i < RECONCILE_MAX_ATTEMPTS; i++) raised = (await w.t.gw.orders.reconcile()).raised;
  expect(raised.length).toBe(1);
  return { orderId, operationId: raised[0]!, rq, amountMinor: extra.unitMinor, restore: () => void (psp.capture = capture) };
}

/** Books one passenger paying through the sandbox agency's CA settlement account: its capture requests a clearance. */
export async function bookSettled(w: StaffWorld, tag: string): Promise<string> {
  const shopped = await shopOffer(w.t, { pax: 1 });
  const r = await w.t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "settlement", method: "CA", amountMinor: shopped.totalMinor }], seller: w.t.gw.sandbox!.iata_number, correlationId: `staff-clr-${tag}`, trxId: "trx-1" }));
  if (r.status !== 200) throw new Error(r.body.slice(0, 2000));
  return orderIdOf(r.body);
}
