import { GatewayError } from "@ndc/errors";
import type { StoreDb } from "@ndc/store";
import type { PaymentLeg } from "../legs/types";
import { afterEntry } from "./balance";
import { appendEntry } from "./hash-chain";
import { refundInstrument, release, settleCapture } from "./instruments";
import { saveLeg } from "./leg-rows";
import { clearanceStep } from "../clearance/rows";
import type { ClearanceDesk } from "../clearance/types";

export type Step = "capture" | "void" | "refund";

/**
 * The state machine's guard: which step a leg allows and for how much. Runs before the PSP is
 * called and again when the answer is recorded, so a step never applies to a leg that moved on.
 */
export function checkStep(step: Step, leg: PaymentLeg, amount: number | undefined): number {
  if (step === "capture") {
    if (leg.state === "voided") throw new GatewayError("payment_leg_voided", { detail: `Leg ${leg.legId}.` });
    if (leg.state === "captured" || leg.state === "refunded") throw new GatewayError("payment_already_captured", { detail: `Leg ${leg.legId}.` });
    if (leg.state !== "authorised") throw new GatewayError("payment_leg_state_invalid", { detail: `Leg ${leg.legId} is ${leg.state}.` });
    const amt = amount ?? leg.authorised;
    if (!Number.isSafeInteger(amt) || amt <= 0 || amt > leg.authorised) {
      throw new GatewayError("payment_legs_invalid", { detail: "A capture is positive and at most the authorised amount." });
    }
    return amt;
  }
  if (step === "void") {
    if (leg.state !== "authorised") throw new GatewayError("payment_leg_state_invalid", { detail: `Leg ${leg.legId} is ${leg.state}; only an authorised leg is voided.` });
    return leg.authorised;
  }
  if (leg.state !== "captured" && leg.state !== "refunded") {
    throw new GatewayError("payment_leg_state_invalid", { detail: `Leg ${leg.legId} is ${leg.state}; only a captured leg is refunded.` });
  }
  const amt = amount ?? leg.captured - leg.refunded;
  if (!Number.isSafeInteger(amt) || amt <= 0 || amt > leg.captured - leg.refunded) {
    throw new GatewayError("refund_exceeds_captured", { detail: `Leg ${leg.legId} has ${leg.captured - leg.refunded} minor units left to refund.` });
  }
  return amt;
}

/**
 * Applies a checked step: instrument balances, the leg row and its ledger entry, in one transaction,
 * and with them a settlement leg's clearance (requested at capture, cancelled by a refund before it
 * cleared) when the gateway gave the ledger its clearance desk. Every capture, void and refund of
 * every path (ledger, sale phases, refund phases) comes through here, so none misses its clearance.
 */
export async function applyStep(tx: StoreDb, step: Step, leg: PaymentLeg, amount: number, key: string, now: number, desk?: ClearanceDesk): Promise<PaymentLeg> {
  let next: PaymentLeg;
  let points = 0;
  // The leg's state and amounts follow from the entry (balance.ts); the row is their cache.
  const after = afterEntry(leg, { type: step, amount });
  if (step === "capture") {
    points = await settleCapture(tx, leg, amount);
    next = { ...leg, ...after, pointsCaptured: points, endedAt: now };
  } else if (step === "void") {
    await release(tx, leg);
    points = leg.points ?? 0;
    next = { ...leg, ...after, endedAt: now };
  } else {
    points = await refundInstrument(tx, leg, amount);
    next = { ...leg, ...after, pointsRefunded: leg.pointsRefunded + points };
  }
  await saveLeg(tx, next);
  await appendEntry(tx, { orderId: leg.orderId, legId: leg.legId, type: step, amount, currency: leg.currency, points, idempotencyKey: key, at: now });
  if (desk) await clearanceStep(tx, desk, step, next, now, amount);
  return next;
}
