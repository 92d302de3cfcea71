import { GatewayError } from "@ndc/errors";
import type { PaymentLeg } from "../legs/types";

/** One leg's share of a refund. */
export interface RefundShare {
  legId: string;
  amount: number;
}

/**
 * Spec 3 "Refund": `amount` over every captured leg with money left to give back, newest first
 * (highest seq), each leg at most what it has captured and not refunded. The one place this
 * order is decided (every saga that pays back plans with it; RefundPayments pays the plan).
 */
export function refundPlan(legs: readonly PaymentLeg[], amount: number, currency: string, orderId: string): RefundShare[] {
  const open = legs.filter((l) => (l.state === "captured" || l.state === "refunded") && l.captured > l.refunded).sort((a, b) => b.seq - a.seq);
  if (open.some((l) => l.currency !== currency)) throw new GatewayError("payment_legs_invalid", { detail: "The refund is not in the order's currency." });
  let left = amount;
  const plan: RefundShare[] = [];
  for (const l of open) {
    if (left === 0) break;
    const take = Math.min(left, l.captured - l.refunded);
    plan.push({ legId: l.legId, amount: take });
    left -= take;
  }
  if (left > 0) throw new GatewayError("refund_exceeds_captured", { detail: `Order ${orderId}.` });
  return plan;
}
