import type { ScheduledJob } from "../job";

/**
 * Sends the notification deliveries that are due (docs/notifications.md): one bounded batch
 * (BATCH rows, PER_SUBSCRIPTION per subscription) per run, waiting for its attempts. It writes
 * only outbox rows, each claimed by one conditional write, so it needs no actor and is safe beside
 * `serve`'s own loop or another scheduler. Where there is no dispatcher (serve dispatches in
 * process, NOTIFY_DISPATCH_MS > 0), the job is not scheduled at all.
 */
export const notificationsDispatch: ScheduledJob = {
  name: "notifications.dispatch",
  schedule: "*/5 * * * * *",
  description: "send due notification deliveries (one bounded batch)",
  async run({ notifications }) {
    if (!notifications) return { skipped: 1 };
    return notifications.tick();
  },
};
