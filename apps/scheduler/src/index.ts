export { startScheduler, type Scheduler, type SchedulerOptions } from "./runner";
export { runSchedulerApp } from "./app";
export { postWebhook } from "./webhook-post";
export type { JobContext, ScheduledJob } from "./job";
export { JOBS } from "./jobs";
export { jobStatus, type JobStatus } from "./leases";
