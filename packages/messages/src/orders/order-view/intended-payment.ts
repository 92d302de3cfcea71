import type { Order } from "@ndc/orders";
import { INTENDED_METHODS } from "@ndc/payments";
import type { PaymentEntryView } from "../shared/view/payment";

/** PaymentStatusCode of a method named for later: nothing authorised or taken yet. */
export const INTENDED_STATUS = "PENDING";

/**
 * The PAYSUM entry of the method a held order will be paid by (docs/payments.md "Paying later by
 * a named method"). 24.4's PaymentFunctionsOrderType has no PaymentMethodCriteria, so the intent
 * is a PaymentProcessingSummary for the amount due with status PENDING and the named method; it
 * goes once the order is paid (by any method) or no longer held.
 */
export function intendedPaymentEntry(order: Order, decimals: number): PaymentEntryView[] {
  const intended = order.intendedPayment;
  if (!intended || (order.state !== "held_unpaid" && order.state !== "held_payment_declined")) return [];
  const m = INTENDED_METHODS[intended.typeCode];
  return [
    {
      paymentId: `${order.orderId}-INTENDED`,
      status: INTENDED_STATUS,
      amount: { minor: order.totalMinor, currency: order.currency, decimals },
      direction: "payment",
      method: { kind: "intended", typeCode: intended.typeCode, name: m.name, ...(intended.brand ? { brand: intended.brand } : {}) },
    },
  ];
}
