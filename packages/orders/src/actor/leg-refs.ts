import { afterEntry } from "@ndc/payments";
import type { OrderLegRef } from "../state";

/**
 * The order's view of one payment leg, moved by the ledger's own rule (payments' ledger/balance.ts),
 * so "captured" and "fully refunded" mean the same on the order as on the leg. The order's legs
 * are captured whole (every capture the sagas make is of the authorised amount, `amountMinor`),
 * and a refund proves the capture, so the view's captured amount is `amountMinor`.
 */
export function legRefAfter(l: OrderLegRef, type: "capture" | "refund", amountMinor: number): OrderLegRef {
  const b = afterEntry({ state: l.state, authorised: l.amountMinor, captured: l.amountMinor, refunded: l.refundedMinor ?? 0 }, { type, amount: amountMinor });
  return type === "refund" ? { ...l, refundedMinor: b.refunded, state: b.state } : { ...l, state: b.state };
}
