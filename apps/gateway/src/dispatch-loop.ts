import type { Logger } from "@ndc/log";
import type { Dispatcher } from "@ndc/notifications";

export interface DispatchLoop {
  stop(): Promise<void>;
}

/**
 * Sends due notifications every NOTIFY_DISPATCH_MS, in the gateway process. A tick only starts
 * attempts; it does not wait for them, so a slow endpoint never holds up the next tick (the
 * dispatcher's per-subscription lanes bound what one endpoint can hold).
 */
export function startDispatchLoop(deps: { dispatcher: Dispatcher; logger: Logger }, opts: { everyMs: number }): DispatchLoop {
  let stopped = false;
  let claiming = false;
  const timer = setInterval(() => {
    if (stopped || claiming) return;
    claiming = true;
    // start() resolves once its attempts are started: the next tick does not wait for them to end.
    deps.dispatcher
      .start()
      .catch((e) => deps.logger.error("notification_dispatch_failed", { error: e instanceof Error ? e.message : String(e) }))
      .finally(() => (claiming = false));
  }, opts.everyMs);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await deps.dispatcher.drain();
    },
  };
}
