import { intervalPattern } from "../interval";
import type { ScheduledJob } from "../job";

/**
 * The saga reconciler (docs/orders.md "Reconciler"): OrderCreate and payment sagas a crash left
 * unfinished are completed or compensated through their order's actor. A saga younger than
 * ORDERS_RECONCILE_MIN_AGE_MS may still belong to a request in flight in some worker and is left
 * alone. Every ORDERS_BACKGROUND_MS, like expiry.
 */
export const ordersReconcile: ScheduledJob = {
  name: "orders.reconcile",
  schedule: (config) => intervalPattern(config.ordersBackgroundMs),
  description: "finish or compensate sagas a crash left unfinished (older than ORDERS_RECONCILE_MIN_AGE_MS)",
  async run({ orders, config, logger }) {
    const report = await orders.reconcile(undefined, { minAgeMs: config.ordersReconcileMinAgeMs });
    // Raised to staff now (their last attempt failed): the durable item is the row in
    // reconcile_failures; this line only says one appeared. Operation ids, no personal data.
    if (report.raised.length) logger.warn("reconcile_failed_raised", { operations: report.raised.join(","), code: "reconcile_failed" });
    return { finished: report.finished.length, compensated: report.compensated.length, failed: report.failed.length };
  },
};
