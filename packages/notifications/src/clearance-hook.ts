import { paymentClearanceNotif } from "@ndc/messages";
import type { ClearanceCarrier, ClearanceDesk, ClearanceHook } from "@ndc/payments";
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

/** The airline as clearance payee, and the hook that writes each clearance event's notification: `serve` and the scheduler process clear alike. */
export function clearanceDeskOf(airline: ClearanceCarrier): ClearanceDesk {
  const carrier = { accountingCode: airline.accountingCode, designator: airline.designator };
  return { carrier, hook: clearanceNotifications(carrier) };
}
