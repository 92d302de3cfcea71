import { runSchedulerApp } from "@ndc/scheduler";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { shutdownSignal } from "../shutdown";

/** `scheduler`: the croner jobs alone, for deployments that run the gateway with --no-scheduler. */
export async function schedulerCommand(args: string[], io: CliIo): Promise<number> {
  if (args.length) throw new UsageError(`scheduler: unexpected argument ${args[0]}`);
  const { config, logger } = loadRuntime(io);
  const stopping = shutdownSignal(io.err); // before the "running" line, see serve.ts
  const app = await runSchedulerApp({ config, logger });
  io.out(`scheduler running: ${app.scheduler.jobs.join(", ")} (data directory ${config.dataDir})`);
  const signal = await stopping;
  logger.info("scheduler_stopping", { signal });
  await app.stop();
  return 0;
}
