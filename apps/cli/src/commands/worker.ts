import { systemClock } from "@ndc/clock";
import { bootGateway, listen, transportOf } from "@ndc/gateway";
import { jobStatus } from "@ndc/scheduler";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { printSandboxCredentials } from "../sandbox";
import { shutdownSignal } from "../shutdown";
import { bannerPrinted, dieWithSupervisor, supervised, tellSupervisor } from "../supervised";
import { VERSION } from "../version";

/**
 * `worker`: one gateway process that answers HTTP and runs no scheduled work (the scheduler app,
 * `ndc-gateway scheduler`, runs every job). `serve --workers N` starts N of them; a process
 * manager that supervises by itself (systemd, Kubernetes) runs N `worker` plus one `scheduler`.
 * Every worker binds its port with SO_REUSEPORT, so any number share one port on one machine.
 */
export async function workerCommand(args: string[], io: CliIo): Promise<number> {
  if (args.length) throw new UsageError(`worker: unexpected argument ${args[0]}`);
  const { config, logger } = loadRuntime(io);
  // Before anything is printed: a caller that reacts to "listening on" with SIGTERM must get the
  // orderly shutdown, not the default kill. A signal during boot is acted on once boot is done.
  const stopping = shutdownSignal(io.err);
  dieWithSupervisor();
  const gw = await bootGateway({
    config,
    logger,
    clock: systemClock,
    // /health/ready names the process that answered (several share the port) and each scheduler
    // job's last and next run, whichever process runs them.
    readyDetail: async (store) => ({ worker: { pid: process.pid }, scheduler: await jobStatus(store, gw.clock.now()) }),
  });
  let server: { url: string; stop(): Promise<void> } | null = null;
  try {
    server = listen(gw, { reusePort: true });
    if (supervised()) {
      // serve prints the banner once for all its workers, then lets them log.
      const banner = bannerPrinted();
      tellSupervisor({ ready: { url: server.url, pid: process.pid } });
      await Promise.race([banner, stopping]);
    } else {
      // Stable first line: scripts and tests read the address from it (PORT=0 picks a free port).
      io.out(`listening on ${server.url}`);
      io.out(`ndc-gateway ${VERSION} worker (pid ${process.pid}), mode ${config.mode}, data directory ${config.dataDir}`);
      io.out(transportOf(config).line);
      if (config.sandboxClockStart !== undefined) io.out(sandboxClockLine(config.sandboxClockStart));
      if (gw.sandbox) printSandboxCredentials(gw.sandbox, gw.sandboxIssued, config, io);
      io.out("no scheduled work here: run `ndc-gateway scheduler` beside the workers of this data directory");
    }
    logger.info("gateway_started", { url: server.url, mode: config.mode, tls: transportOf(config).tls, worker: process.pid });
    const signal = await stopping;
    logger.info("gateway_stopping", { signal });
    return 0;
  } finally {
    // Also on a failed start: the listener (requests in flight finish), then the actors and the store.
    await server?.stop();
    await gw.close();
    if (server) logger.info("gateway_stopped", {});
  }
}

/** What serve and a lone worker say when business time is not the real time. */
export function sandboxClockLine(start: number): string {
  return `sandbox clock started at ${new Date(start).toISOString()} (SANDBOX_CLOCK_START), not the real time`;
}
