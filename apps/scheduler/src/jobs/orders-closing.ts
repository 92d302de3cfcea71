import type { ScheduledJob } from "../job";

/**
 * The closing check (spec 3; docs/orders.md "Closing"): booked orders whose every service is
 * delivered (the state ServiceDeliveryRQ answers) and whose money is settled (payments captured,
 * clearances cleared) move to Closed through their own actor, OrderClosingNotifRQ (`order.closed`)
 * committing with the move. At most CLOSING_BATCH orders a run. It runs in the scheduler app, and
 * in whichever worker answers a sandbox control that runs it by name (after a flight is flown).
 */
export const ordersClosing: ScheduledJob = {
  name: "orders.closing",
  schedule: "30 * * * * *",
  description: "close booked orders whose services are delivered and whose money is settled",
  async run({ orders }) {
    // Each order at its owner's business time (its seller's sandbox clock), like its actors.
    const { closed, waiting } = await orders.closeSettled();
    return { closed: closed.length, waiting };
  },
};
