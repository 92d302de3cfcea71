import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import { openDomain, type Domain } from "@ndc/domain";
import type { Logger } from "@ndc/log";
import { jobContextOf, type ScheduledJob } from "./job";
import { startScheduler, type Scheduler } from "./runner";
import { postWebhook } from "./webhook-post";

/**
 * The scheduler app (`ndc-gateway scheduler`): the domain over its own store connection, with its
 * own actors, and every job on its schedule, each under its lease, so it runs alone (no gateway
 * process needed) or beside any number of workers and other scheduler apps on the same store
 * (decision 0040). Its business clock is the gateway's (SANDBOX_CLOCK_START), built in the domain.
 * Stopping it waits for running jobs and deliveries in flight, then closes the actors and the store.
 */
export async function runSchedulerApp(opts: {
  config: GatewayConfig;
  logger: Logger;
  /** Real time; tests inject one. */
  clock?: Clock;
  /** Defaults to the registry; tests pass their own. */
  jobs?: readonly ScheduledJob[];
}): Promise<{ scheduler: Scheduler; domain: Domain; stop(): Promise<void> }> {
  const domain = await openDomain({ config: opts.config, logger: opts.logger, clock: opts.clock, post: postWebhook });
  const scheduler = startScheduler({ ...jobContextOf(domain, opts.logger), jobs: opts.jobs });
  return {
    scheduler,
    domain,
    async stop() {
      await scheduler.stop();
      await domain.close();
    },
  };
}
