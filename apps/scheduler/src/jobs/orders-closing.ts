import type { ScheduledJob } from "../job";

/**
 * The closing check (spec 3; docs/orders.md "Closing"): booked orders whose every service is
 * delivered (the state ServiceDeliveryRQ answers) and whose money is settled (payments captured,
 * clearances cleared) move to Closed through their own actor, OrderClosingNotifRQ (`order.closed`)
 * committing with the move. At most CLOSING_BATCH orders a run. It changes orders, so it runs only
 * where the order actors live (`serve`'s in-process scheduler, and the sandbox controls, which run
 * it by this name after a flight is flown): a scheduler process without actors skips it, and the
 * gateway beside it closes orders in its own background pass (decision 0027).
 */
export const ordersClosing: ScheduledJob = {
  name: "orders.closing",
  schedule: "30 * * * * *",
  description: "close booked orders whose services are delivered and whose money is settled",
  async run({ orders }) {
    if (!orders) return { skipped: 1 };
    // Each order at its owner's business time (its seller's sandbox clock), like its actors.
    const { closed, waiting } = await orders.closeSettled();
    return { closed: closed.length, waiting };
  },
};
