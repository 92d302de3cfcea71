import type { ScheduledJob } from "../job";

/**
 * The simulated Clearance Manager's sweep (spec 3 "Clearance"; docs/payments.md): clears every
 * requested clearance of a settlement-plan payment, oldest first, at most CLEARANCE_BATCH a run,
 * each for exactly its amount, each clearing and its IATA_PaymentClearanceNotif in one write.
 * Clearances are the payment domain's rows, not an actor's state, and each clearing is one
 * conditional write, so this runs in the scheduler app beside PaymentClearanceRQ clearing the same
 * payments in any worker: a payment is cleared once. Every 10 s, the order
 * sweeps' cadence, because the closing check waits for it.
 */
export const paymentsClearance: ScheduledJob = {
  name: "payments.clearance",
  schedule: "*/10 * * * * *",
  description: "clear requested settlement-plan clearances (simulated Clearance Manager)",
  async run({ clearances }) {
    return clearances.clearDue();
  },
};
