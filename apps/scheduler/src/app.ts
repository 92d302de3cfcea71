import { lazyAirlineKey, notificationSigner } from "@ndc/signatures";
import { registryGrants, storeSellerClocks } from "@ndc/auth";
import { systemClock, type Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Logger } from "@ndc/log";
import { migrate, openStore } from "@ndc/store";
import { clearanceDeskOf, Dispatcher, Subscriptions } from "@ndc/notifications";
import { ClearanceManager } from "@ndc/payments";
import { loadFieldKey } from "@ndc/pii";
import { startScheduler, type Scheduler } from "./runner";
import { postWebhook } from "./webhook-post";

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
  const clock = opts.clock ?? systemClock;
  // The scheduler process dispatches notifications (serve run with NOTIFY_DISPATCH_MS=0 leaves them to it).
  const subscriptions = new Subscriptions({ store, clock, fieldKey: loadFieldKey(opts.config), mode: opts.config.mode, maxPerAgency: opts.config.notifySubscriptionsMax });
  const notifications = new Dispatcher({ store, clock, logger: opts.logger, subscriptions, mode: opts.config.mode, post: postWebhook, claimMs: opts.config.notifyClaimMs, holdsGrant: registryGrants(store),
    // The airline's XML signature for agencies whose agreement asks (docs/signatures.md), as in `serve`.
    signBody: notificationSigner(store, lazyAirlineKey(opts.config)),
    // The sellers' sandbox clocks, read from the store the gateway moves them in: a moved seller's pushes fall due on its time.
    sellerClocks: opts.config.mode === "production" ? undefined : storeSellerClocks(store),
  });
  // Clearances are payment rows with their outbox rows, no actor's state: the scheduler process clears them.
  const clearances = new ClearanceManager({ store, clock, desk: clearanceDeskOf(opts.config.airline) });
  const scheduler = startScheduler({ store, config: opts.config, logger: opts.logger, clock, notifications, clearances });
  return {
    scheduler,
    async stop() {
      await scheduler.stop();
      await notifications.drain();
      await store.close();
    },
  };
}
