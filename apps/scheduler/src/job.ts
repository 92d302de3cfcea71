import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Domain } from "@ndc/domain";
import type { Logger } from "@ndc/log";
import type { Store } from "@ndc/store";
import type { Dispatcher } from "@ndc/notifications";
import type { OrdersService } from "@ndc/orders";
import type { ClearanceManager } from "@ndc/payments";

/**
 * What every job receives: the domain of the process that runs it (the scheduler app's, or a
 * gateway worker's when a sandbox control runs a job by name). Jobs read time from `clock`, never
 * from Date, so tests and the simulation can move it.
 */
export interface JobContext {
  store: Store;
  config: GatewayConfig;
  logger: Logger;
  clock: Clock;
  /** The notification dispatcher. */
  notifications: Dispatcher;
  /** The simulated Clearance Manager (payments.clearance). */
  clearances: ClearanceManager;
  /** The order domain with this process's actors: a job changes an order through them, as a request does. */
  orders: OrdersService;
}

/** The context of a job run over `domain`, logging to `logger` (default the domain's). */
export function jobContextOf(domain: Domain, logger: Logger = domain.logger): JobContext {
  return { store: domain.store, config: domain.config, logger, clock: domain.clock, notifications: domain.dispatcher, clearances: domain.clearances, orders: domain.orders };
}

/**
 * One named, scheduled unit of work. A job decides what is due and asks the owner to act
 * (an order's actor, through its command inbox): it never writes another owner's state itself.
 */
export interface ScheduledJob {
  /** Stable dotted name used in logs, `runNow` and the sandbox's /sandbox/scheduler/run (e.g. "store.checkpoint"). */
  name: string;
  /**
   * Croner pattern, evaluated in UTC. Six fields allowed (seconds first); or made from the
   * configuration (an interval setting), null when the setting turns the job off (it still runs by name).
   */
  schedule: string | ((config: GatewayConfig) => string | null);
  description: string;
  /** Resolves with a small summary for the log line; throwing is allowed and is logged, never propagated. */
  run(ctx: JobContext): Promise<Record<string, unknown> | void>;
}
