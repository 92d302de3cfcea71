import { paymentClearanceNotif } from "@ndc/messages";
import type { ClearanceCarrier, ClearanceHook } from "@ndc/payments";
import { enqueue } from "./outbox";

/**
 * The clearance desk's hook (spec 6): every clearance event (requested at capture, STTCAP;
 * cleared; cancelled, STTCAN) writes IATA_PaymentClearanceNotif into the outbox for the paying
 * agency's `payment.clearance` subscriptions, in the transaction that records the event.
 */
export function clearanceNotifications(carrier: ClearanceCarrier): ClearanceHook {
  return async (tx, e) => {
    const body = paymentClearanceNotif(e.clearance, carrier);
    await enqueue(tx, { event: "payment.clearance", agencyId: e.clearance.agencyId, orderId: e.clearance.orderId, body }, e.at);
  };
}
