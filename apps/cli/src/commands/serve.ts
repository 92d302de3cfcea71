import { provisionSandbox } from "@ndc/auth";
import { ensurePrivateDir, type GatewayConfig } from "@ndc/config";
import { transportOf } from "@ndc/gateway";
import { migrate, openStore } from "@ndc/store";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { printSandboxCredentials } from "../sandbox";
import { shutdownSignal } from "../shutdown";
import { VERSION } from "../version";
import { selfCommand, Supervisor } from "./supervisor";
import { sandboxClockLine } from "./worker";

/** How long a child has to stop in order after SIGTERM before it is killed (a worker's own limit is 10 s). */
const CHILD_GRACE_MS = 12_000;

/**
 * `serve [--workers N]`: the whole single-binary product on one machine. Migrates the store and
 * provisions the local sandbox seller once, then supervises N gateway workers on one port and the
 * scheduler app (supervisor.ts): the same processes an operator runs by hand as `worker` and
 * `scheduler` (docs/operations.md). SIGINT/SIGTERM stops every child, then serve exits 0.
 */
export async function serveCommand(args: string[], io: CliIo): Promise<number> {
  const asked = workersOption(args);
  const { config, logger } = loadRuntime(io);
  // Business time was SANDBOX_CLOCK_START now, for every child, whenever it (re)starts.
  const startedAt = new Date().toISOString();
  // Before anything is printed: a caller that reacts to "listening on" with SIGTERM must get the
  // orderly shutdown. Longer than the children's grace, so that serve outlives them.
  const stopping = shutdownSignal(io.err, CHILD_GRACE_MS + 3_000);
  const issued = await prepare(config);
  const workers = asked ?? config.workers;
  const supervisor = new Supervisor({
    self: selfCommand(),
    env: {
      ...io.env,
      // PORT=0: one free port chosen here, which every worker then binds (and a restarted one again).
      PORT: String(config.port === 0 ? await freePort(config.host) : config.port),
      ...(config.sandboxClockStart !== undefined && config.sandboxClockStartedAt === undefined ? { SANDBOX_CLOCK_STARTED_AT: startedAt } : {}),
      // Each worker allows its share of the per-minute limits (docs/authentication.md).
      GATEWAY_WORKERS: String(workers),
      // One build id for every child of this start, so they share the views they store (0067).
      GATEWAY_BUILD_ID: config.buildId ?? `serve ${process.pid} ${startedAt}`,
    },
    workers,
    logger,
  });
  try {
    const started = await Promise.race([supervisor.start(), stopping.then(() => null)]);
    if (started === null) return 0;
    // Stable first line: scripts and tests read the address from it.
    io.out(`listening on ${started}`);
    io.out(`ndc-gateway ${VERSION}, mode ${config.mode}, data directory ${config.dataDir}`);
    io.out(transportOf(config).line);
    if (config.sandboxClockStart !== undefined) io.out(sandboxClockLine(config.sandboxClockStart));
    if (issued) printSandboxCredentials(issued.credentials, issued.issued, config, io);
    supervisor.announceServing();
    supervisor.startScheduler();
    const pids = supervisor.pids();
    io.out(`serve (pid ${process.pid}): ${workers} gateway worker${workers === 1 ? "" : "s"} (pid ${pids.workers.join(", ")}) on one port, the scheduler app (pid ${pids.scheduler})`);
    logger.info("serve_started", { url: started, mode: config.mode, workers: pids.workers, scheduler: pids.scheduler });
    const signal = await stopping;
    logger.info("serve_stopping", { signal });
    return 0;
  } finally {
    // Also on a failed start: no child outlives serve.
    await supervisor.stop(CHILD_GRACE_MS);
    logger.info("serve_stopped", {});
  }
}

/** --workers N (at least 1); the --no-scheduler of the single-process days names what replaced it. */
function workersOption(args: string[]): number | undefined {
  let workers: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--no-scheduler") {
      throw new UsageError("serve: --no-scheduler is gone: serve always runs the scheduler app beside its workers; for gateway processes alone run `ndc-gateway worker` (and one `ndc-gateway scheduler` beside them)");
    }
    const value = a === "--workers" ? args[++i] : a.startsWith("--workers=") ? a.slice("--workers=".length) : undefined;
    if (value === undefined && a !== "--workers") throw new UsageError(`serve: unknown option ${a}`);
    if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`serve: --workers needs a whole number of at least 1, got ${value === undefined ? "nothing" : `"${value}"`}`);
    workers = Number(value);
  }
  return workers;
}

/**
 * What must happen once before the children start, not in each: the data directory, the
 * migrations, the local sandbox seller (whose secrets only this start may print; the children
 * find them saved and issue nothing).
 */
async function prepare(config: GatewayConfig): Promise<Awaited<ReturnType<typeof provisionSandbox>>> {
  ensurePrivateDir(config.dataDir);
  const store = await openStore(config.databaseUrl, { driver: config.databaseDriver, authToken: config.databaseAuthToken });
  try {
    await migrate(store);
    return await provisionSandbox({ store, config });
  } finally {
    await store.close();
  }
}

/** A port free now on `host`: bound and released here, before any worker binds it. */
async function freePort(host: string): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: host, fetch: () => new Response(null, { status: 503 }) });
  const port = probe.port;
  await probe.stop(true);
  if (!port) throw new Error(`no free port on ${host}`);
  return port;
}
