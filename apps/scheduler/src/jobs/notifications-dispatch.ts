import { intervalPattern } from "../interval";
import type { ScheduledJob } from "../job";

/** A run stops taking new batches after this; a tick that falls while it runs is skipped (croner `protect`). */
const RUN_BUDGET_MS = 4_000;

/**
 * Sends the notification deliveries that are due (docs/notifications.md): batch after batch
 * (each at most BATCH rows, PER_SUBSCRIPTION in flight per subscription), waiting for each
 * batch's attempts, until nothing is due or the run's 4 s budget is spent. It writes only
 * outbox rows, each claimed by one conditional write, so it needs no actor and is safe beside a
 * sandbox control dispatching in a worker. Every NOTIFY_DISPATCH_MS (0: only by name), the one way
 * notifications are sent.
 */
export const notificationsDispatch: ScheduledJob = {
  name: "notifications.dispatch",
  schedule: (config) => intervalPattern(config.notifyDispatchMs),
  description: "send due notification deliveries (bounded batches, at most 4 s a run)",
  async run({ notifications }) {
    const started = performance.now();
    let sent = 0;
    let batches = 0;
    for (;;) {
      const { started: n } = await notifications.tick();
      if (n === 0) break;
      sent += n;
      batches++;
      if (performance.now() - started >= RUN_BUDGET_MS) break;
    }
    return { started: sent, batches };
  },
};
