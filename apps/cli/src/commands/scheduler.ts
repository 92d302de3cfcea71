import { jobStatus, runSchedulerApp } from "@ndc/scheduler";
import { migrate, openStore } from "@ndc/store";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { shutdownSignal } from "../shutdown";
import { dieWithSupervisor } from "../supervised";

/** `scheduler`: the scheduler app, every job over its own domain and actors, beside the gateway workers or alone (docs/scheduler.md). */
export async function schedulerCommand(args: string[], io: CliIo): Promise<number> {
  if (args[0] === "status" && args.length === 1) return schedulerStatus(io);
  if (args.length) throw new UsageError(`scheduler: unexpected argument ${args[0]}`);
  const { config, logger } = loadRuntime(io);
  const stopping = shutdownSignal(io.err); // before the "running" line, see worker.ts
  dieWithSupervisor();
  // Business time as the gateway workers read it (SANDBOX_CLOCK_START, anchored at SANDBOX_CLOCK_STARTED_AT).
  // Business time from SANDBOX_CLOCK_START/STARTED_AT, as the workers' (the domain's businessBase); security time real.
  const app = await runSchedulerApp({ config, logger });
  io.out(`scheduler running: ${app.scheduler.jobs.join(", ")} (data directory ${config.dataDir})`);
  const signal = await stopping;
  logger.info("scheduler_stopping", { signal });
  await app.stop();
  return 0;
}

/**
 * `scheduler status`: what every scheduler on this store last did and will do next, from the
 * scheduler_jobs rows (docs/scheduler.md). One line per job, tab-separated.
 */
async function schedulerStatus(io: CliIo): Promise<number> {
  const { config } = loadRuntime(io);
  const store = await openStore(config.databaseUrl);
  try {
    await migrate(store);
    const jobs = await jobStatus(store, Date.now());
    if (jobs.length === 0) io.out("no scheduler has run on this data directory yet");
    for (const j of jobs) {
      const last = j.lastStartedAt ? `last ${j.lastStartedAt} ${j.lastOutcome ?? "running"} ${JSON.stringify(j.lastSummary ?? {})}` : "last never";
      io.out([j.job, last, `next ${j.nextRunAt ?? "-"}`, j.running ? `running on ${j.holder}` : "idle"].join("\t"));
    }
  } finally {
    await store.close();
  }
  return 0;
}
