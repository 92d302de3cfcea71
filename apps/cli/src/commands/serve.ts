import { systemClock } from "@ndc/clock";
import { bootGateway, listen, transportOf } from "@ndc/gateway";
import { jobStatus } from "@ndc/scheduler";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { printSandboxCredentials } from "../sandbox";
import { shutdownSignal } from "../shutdown";
import { VERSION } from "../version";

/**
 * `serve`: boots the gateway (store, migrations, sandbox seller), listens, and closes in order on
 * SIGINT/SIGTERM. It runs no scheduled work: every job runs in the scheduler app
 * (`ndc-gateway scheduler`) beside it (issue 22; docs/scheduler.md). `--no-scheduler`, which once
 * turned off an in-process scheduler, is still accepted and changes nothing.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const unknown = args.filter((a) => a !== "--no-scheduler");
  if (unknown.length) throw new UsageError(`serve: unknown option ${unknown[0]}`);

  const { config, logger } = loadRuntime(io);
  // Listen for signals before anything is printed: a caller that reacts to "listening on"
  // with SIGTERM must get the orderly shutdown, not the default kill. A signal during boot
  // is kept and acted on as soon as boot is done.
  const stopping = shutdownSignal(io.err);
  // /health/ready shows each scheduler job's last and next run, whichever process runs them.
  const gw = await bootGateway({ config, logger, clock: systemClock, readyDetail: async (store) => ({ scheduler: await jobStatus(store, gw.clock.now()) }) });
  let server: { url: string; stop(): Promise<void> } | null = null;
  try {
    server = listen(gw);
    // Stable first line: scripts and tests read the address from it (PORT=0 picks a free port).
    io.out(`listening on ${server.url}`);
    io.out(`ndc-gateway ${VERSION}, mode ${config.mode}, data directory ${config.dataDir}`);
    const transport = transportOf(config);
    io.out(transport.line);
    if (config.sandboxClockStart !== undefined) io.out(`sandbox clock started at ${new Date(config.sandboxClockStart).toISOString()} (SANDBOX_CLOCK_START), not the real time`);
    if (gw.sandbox) printSandboxCredentials(gw.sandbox, gw.sandboxIssued, config, io);
    logger.info("gateway_started", { url: server.url, mode: config.mode, tls: transport.tls });
    const signal = await stopping;
    logger.info("gateway_stopping", { signal });
    return 0;
  } finally {
    // Also on a failed start. The listener first, then the domain (actors, then the store).
    await server?.stop();
    await gw.close();
    if (server) logger.info("gateway_stopped", {});
  }
}
