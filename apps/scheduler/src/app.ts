import { systemClock, type Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Logger } from "@ndc/log";
import { migrate, openStore } from "@ndc/store";
import { startScheduler, type Scheduler } from "./runner";

/**
 * The scheduler as its own process (`ndc-gateway scheduler`): its own store connection,
 * migrated first so it can start before or without a gateway on the same data directory.
 * Stopping it waits for running jobs, then closes the store.
 */
export async function runSchedulerApp(opts: {
  config: GatewayConfig;
  logger: Logger;
  clock?: Clock;
}): Promise<{ scheduler: Scheduler; stop(): Promise<void> }> {
  const store = await openStore(opts.config.databaseUrl);
  try {
    await migrate(store);
  } catch (e) {
    await store.close();
    throw e;
  }
  const scheduler = startScheduler({ store, config: opts.config, logger: opts.logger, clock: opts.clock ?? systemClock });
  return {
    scheduler,
    async stop() {
      await scheduler.stop();
      await store.close();
    },
  };
}
