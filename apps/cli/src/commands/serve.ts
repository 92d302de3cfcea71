import { systemClock } from "@ndc/clock";
import { bootGateway, listen, transportOf } from "@ndc/gateway";
import { JOBS, jobStatus, startScheduler, type Scheduler } from "@ndc/scheduler";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { printSandboxCredentials } from "../sandbox";
import { shutdownSignal } from "../shutdown";
import { VERSION } from "../version";

/**
 * `serve`: the whole single-binary product. Boots the gateway (store, migrations, sandbox
 * seller), listens, runs the scheduler in the same process unless told not to (a separate
 * `ndc-gateway scheduler` process is then expected), and closes in order on SIGINT/SIGTERM.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const unknown = args.filter((a) => a !== "--no-scheduler");
  if (unknown.length) throw new UsageError(`serve: unknown option ${unknown[0]}`);
  const withScheduler = !args.includes("--no-scheduler");

  const { config, logger } = loadRuntime(io);
  // Listen for signals before anything is printed: a caller that reacts to "listening on"
  // with SIGTERM must get the orderly shutdown, not the default kill. A signal during boot
  // is kept and acted on as soon as boot is done.
  const stopping = shutdownSignal(io.err);
  // /health/ready shows each scheduler job's last and next run, whichever process runs them.
  // Without the in-process scheduler the jobs that need the order actors (the closing check, the
  // operations jobs) run in the gateway's background pass (decisions 0025, 0027).
  const gw = await bootGateway({ config, logger, clock: systemClock, closingInBackground: !withScheduler, operationsInBackground: !withScheduler, readyDetail: async (store) => ({ scheduler: await jobStatus(store, gw.clock.now()) }) });
  let server: { url: string; stop(): Promise<void> } | null = null;
  let scheduler: Scheduler | null = null;
  try {
    server = listen(gw);
    // Stable first line: scripts and tests read the address from it (PORT=0 picks a free port).
    io.out(`listening on ${server.url}`);
    io.out(`ndc-gateway ${VERSION}, mode ${config.mode}, data directory ${config.dataDir}`);
    const transport = transportOf(config);
    io.out(transport.line);
    if (config.sandboxClockStart !== undefined) io.out(`sandbox clock started at ${new Date(config.sandboxClockStart).toISOString()} (SANDBOX_CLOCK_START), not the real time`);
    if (gw.sandbox) printSandboxCredentials(gw.sandbox, gw.sandboxIssued, config, io);
    if (withScheduler) {
      // Notification dispatch runs on serve's own loop unless NOTIFY_DISPATCH_MS=0; then it is a scheduler job here.
      const inProcessDispatch = gw.notifications.loop !== null;
      scheduler = startScheduler({
        store: gw.store,
        config,
        logger,
        // The gateway's clock (business time): with SANDBOX_CLOCK_START in the past the wall clock
        // would purge every offer and erase documents as if it were today.
        clock: gw.clock,
        jobs: JOBS.filter((j) => !(inProcessDispatch && j.name === "notifications.dispatch")),
        notifications: gw.notifications.dispatcher,
        clearances: gw.clearances,
        // The operations jobs change orders: they run here, beside the actors (decision 0025).
        orders: gw.orders,
      });
      io.out(`scheduler running in-process: ${scheduler.jobs.join(", ")}`);
    } else {
      io.out("scheduler not started (--no-scheduler): run `ndc-gateway scheduler` beside this process");
    }
    logger.info("gateway_started", { url: server.url, mode: config.mode, tls: transport.tls, scheduler: withScheduler });
    const signal = await stopping;
    logger.info("gateway_stopping", { signal });
    return 0;
  } finally {
    // Also on a failed start. Jobs first (they use the store), then the listener, then the store.
    await scheduler?.stop();
    await server?.stop();
    await gw.close();
    if (server) logger.info("gateway_stopped", {});
  }
}
