import type { Order } from "@ndc/orders";
import type { PaymentLeg } from "@ndc/payments";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import { entryMethod } from "../order-view/view-of";
import type { PaymentEntryView } from "../shared/view/payment";

/**
 * What one change did with money (OrderHistoryRS New/PaymentFunctions, issue 20 item 9): the
 * legs the order's version records differently from the version before, read from the order's
 * own leg references (each version as it was then): a leg that is new or whose state moved (a
 * payment authorised, captured, declined or voided, at that state and amount), and a refund's
 * share (the amount paid back by this change, `<leg>-R`). The method is the ledger's, masked as
 * PAYSUM shows it. A leg the ledger does not hold, or a card the PSP never named, is not listed.
 */
export function changePayments(before: Order | undefined, after: Order, ledger: readonly PaymentLeg[], at: string): PaymentEntryView[] {
  const decimals = minorUnits(after.currency as CurrencyCode);
  const money = (minor: number) => ({ minor, currency: after.currency, decimals });
  const out: PaymentEntryView[] = [];
  for (const ref of after.legs) {
    const prev = before?.legs.find((l) => l.legId === ref.legId);
    const leg = ledger.find((l) => l.legId === ref.legId);
    const method = leg ? entryMethod(leg) : undefined;
    if (!method) continue;
    const refunded = (ref.refundedMinor ?? 0) - (prev?.refundedMinor ?? 0);
    if (refunded > 0) {
      out.push({ paymentId: `${ref.legId}-R`, status: "REFUNDED", amount: money(refunded), direction: "refund", at, method });
    } else if (!prev || prev.state !== ref.state) {
      out.push({ paymentId: ref.legId, status: ref.state.toUpperCase(), amount: money(ref.amountMinor), direction: "payment", at, method });
    }
  }
  return out;
}
