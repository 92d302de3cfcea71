import type { Clock } from "@ndc/clock";
import type { Logger } from "@ndc/log";
import type { OrdersService } from "@ndc/orders";

/**
 * A saga younger than this may still belong to a request in flight: the reconciler leaves it
 * alone. The default of ORDERS_RECONCILE_MIN_AGE_MS; crash tests lower it to reconcile at once.
 */
export const RECONCILE_MIN_AGE_MS = 30_000;

export interface OrdersBackground {
  /** Runs one pass now (tests; also what each tick does). Never two passes at once. */
  tick(): Promise<void>;
  /** Stops the timer and waits for a pass in progress, so the store can close after it. */
  stop(): Promise<void>;
  /** This process's last finished pass (the staff dashboard shows it beside the scheduler's jobs); null before the first. */
  lastPass(): BackgroundPass | null;
}

export interface BackgroundPass {
  startedAt: number;
  finishedAt: number;
  outcome: "done" | "failed";
}

/**
 * The order work that is due at a time rather than on a request (spec 3): held orders past
 * their payment time limit are cancelled (holds released), sagas a crash left unfinished are
 * completed or compensated, and, where no in-process scheduler runs them, the operations jobs. It runs inside the gateway, beside the actor system, and not as a
 * scheduler job: orders change only through their actors (one writer per key, DESIGN 4) and the
 * actors live in this process, so a scheduler in another process would be a second writer. Each
 * change still goes through the order's actor; the pass only finds what is due at clock.now().
 */
export function startOrdersBackground(
  deps: { orders: OrdersService; clock: Clock; logger: Logger; sweeps?: Record<string, () => Promise<Record<string, number>>> },
  opts: { everyMs: number; minAgeMs?: number; closing?: boolean },
): OrdersBackground {
  const minAgeMs = opts.minAgeMs ?? RECONCILE_MIN_AGE_MS;
  let running: Promise<void> | null = null;
  let stopped = false;
  let last: BackgroundPass | null = null;

  const pass = async () => {
    const now = deps.clock.now();
    let outcome: BackgroundPass["outcome"] = "done";
    try {
      // Expiry, the reconciler and closing judge each order at its owner's business time (its sandbox clock), not `now`.
      const expired = await deps.orders.expireUnpaid();
      // Values retained by RespendInd that lapsed unspent are refunded (cancel/retained-lapse.ts).
      const lapsed = await deps.orders.lapseRetained();
      const report = await deps.orders.reconcile(undefined, { minAgeMs });
      // The operations jobs, when no in-process scheduler runs them (serve --no-scheduler; decision 0025):
      // before the closing check, which waits for the deliveries they record.
      for (const [job, run] of Object.entries(deps.sweeps ?? {})) {
        const summary = await run();
        if (Object.values(summary).some((n) => n > 0)) deps.logger.info("orders_background_done", { job, ...summary });
      }
      // The closing check, when no scheduler runs beside the actors in this process (serve --no-scheduler): decision 0027.
      const closed = opts.closing ? (await deps.orders.closeSettled()).closed : [];
      // A quiet pass writes nothing, so an idle gateway's log is not one line every few seconds.
      if (expired.length || lapsed.length || closed.length || report.finished.length || report.compensated.length || report.failed.length) {
        deps.logger.info("orders_background_done", {
          expired: expired.length,
          lapsed: lapsed.length,
          closed: closed.length,
          finished: report.finished.length,
          compensated: report.compensated.length,
          failed: report.failed.length,
        });
      }
      // Raised to staff now (their last attempt failed): the durable item is the row in
      // reconcile_failures; this line only says one appeared. Operation ids, no personal data.
      if (report.raised.length) deps.logger.warn("reconcile_failed_raised", { operations: report.raised.join(","), code: "reconcile_failed" });
    } catch (e) {
      // Logged, not thrown: the next tick tries again; a failing pass must not stop the gateway.
      deps.logger.error("orders_background_failed", { error: e instanceof Error ? e.message : String(e) });
      outcome = "failed";
    }
    last = { startedAt: now, finishedAt: deps.clock.now(), outcome };
  };

  const tick = (): Promise<void> => {
    // Never overlaps itself: a tick while a pass runs joins that pass instead of starting another.
    if (!running) running = pass().finally(() => (running = null));
    return running;
  };

  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, opts.everyMs);
  // The timer alone must not keep a process (a test, a CLI command) alive.
  timer.unref?.();

  return {
    tick,
    lastPass: () => last,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
