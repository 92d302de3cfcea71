import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Logger } from "@ndc/log";
import type { Store } from "@ndc/store";
import type { Dispatcher } from "@ndc/notifications";
import type { OrdersService } from "@ndc/orders";
import type { ClearanceManager } from "@ndc/payments";

/** What every job receives. Jobs read time from `clock`, never from Date, so tests and the simulation can move it. */
export interface JobContext {
  store: Store;
  config: GatewayConfig;
  logger: Logger;
  clock: Clock;
  /** The notification dispatcher, where this scheduler dispatches (absent: the job has nothing to do). */
  notifications?: Dispatcher;
  /** The simulated Clearance Manager (payments.clearance). */
  clearances?: ClearanceManager;
  /** The order domain with its actors, where this scheduler runs beside them (`serve`); absent in the scheduler process. */
  orders?: OrdersService;
}

/**
 * One named, scheduled unit of work. A job decides what is due and asks the owner to act
 * (an order's actor, through its command inbox): it never writes another owner's state itself.
 */
export interface ScheduledJob {
  /** Stable dotted name used in logs and `runNow` (e.g. "store.checkpoint", later "orders.expiry"). */
  name: string;
  /** Croner pattern, evaluated in UTC. Six fields allowed (seconds first); or made from the configuration (an interval setting). */
  schedule: string | ((config: GatewayConfig) => string);
  description: string;
  /** Resolves with a small summary for the log line; throwing is allowed and is logged, never propagated. */
  run(ctx: JobContext): Promise<Record<string, unknown> | void>;
}
