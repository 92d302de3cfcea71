export { startScheduler, jobsByName, patternOf, type Scheduler, type SchedulerOptions } from "./runner";
export { runSchedulerApp } from "./app";
export { postWebhook } from "./webhook-post";
export { jobContextOf, type JobContext, type ScheduledJob } from "./job";
export { JOBS, CLOCK_SWEEPS } from "./jobs";
export { intervalPattern } from "./interval";
export { jobStatus, type JobStatus } from "./leases";
