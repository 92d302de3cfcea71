import { intervalPattern } from "../interval";
import type { ScheduledJob } from "../job";

/**
 * Held orders past their payment time limit are cancelled, their holds released (spec 3; docs/orders.md
 * "Payment time limit"), each through its order's actor, its OrderChangeNotifRQ written in the same
 * transaction. Each order is judged at its owner's business time (its seller's sandbox clock).
 * Every ORDERS_BACKGROUND_MS (0: only by name). Any process may run it: an order a worker changes at
 * the same moment makes the actor here reload and decide again (decision 0040).
 */
export const ordersExpireUnpaid: ScheduledJob = {
  name: "orders.expire-unpaid",
  schedule: (config) => intervalPattern(config.ordersBackgroundMs),
  description: "cancel held orders past their payment time limit and release their holds",
  async run({ orders }) {
    return { cancelled: (await orders.expireUnpaid()).length };
  },
};

/**
 * Values retained by RespendInd that lapsed unspent are refunded (cancel/retained-lapse.ts), on the
 * expiry job's cadence.
 */
export const ordersRetainedLapse: ScheduledJob = {
  name: "orders.retained-lapse",
  schedule: (config) => intervalPattern(config.ordersBackgroundMs),
  description: "refund retained values (RespendInd) whose time to respend has lapsed",
  async run({ orders }) {
    return { refunded: (await orders.lapseRetained()).length };
  },
};
