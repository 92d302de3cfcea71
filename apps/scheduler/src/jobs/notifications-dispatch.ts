import type { ScheduledJob } from "../job";

/** A run stops taking new batches after this, so it ends before the next tick (every 5 s). */
const RUN_BUDGET_MS = 4_000;

/**
 * Sends the notification deliveries that are due (docs/notifications.md): batch after batch
 * (each at most BATCH rows, PER_SUBSCRIPTION in flight per subscription), waiting for each
 * batch's attempts, until nothing is due or the run's 4 s budget is spent. It writes only
 * outbox rows, each claimed by one conditional write, so it needs no actor and is safe beside
 * `serve`'s own loop or another scheduler. Where there is no dispatcher the job has nothing to do;
 * `serve` does not schedule it while it dispatches on its own loop (NOTIFY_DISPATCH_MS > 0).
 */
export const notificationsDispatch: ScheduledJob = {
  name: "notifications.dispatch",
  schedule: "*/5 * * * * *",
  description: "send due notification deliveries (bounded batches, at most 4 s a run)",
  async run({ notifications }) {
    if (!notifications) return { skipped: 1 };
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
