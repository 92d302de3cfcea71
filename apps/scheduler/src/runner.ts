import { Cron } from "croner";
import type { JobContext, ScheduledJob } from "./job";
import { JOBS } from "./jobs";

export interface Scheduler {
  /** Names of the scheduled jobs, in registry order. */
  readonly jobs: readonly string[];
  /**
   * Runs one job now, outside its schedule (operators, tests). Refused with `false` when that
   * job is already running, the same rule the schedule follows.
   */
  runNow(name: string): Promise<boolean>;
  /** Stops every schedule, then waits for runs in flight so the store can be closed after it. */
  stop(): Promise<void>;
}

export interface SchedulerOptions extends JobContext {
  /** Defaults to the registry; tests pass their own. */
  jobs?: readonly ScheduledJob[];
}

/**
 * Starts croner for each job. A job never overlaps itself (croner `protect`, and the same
 * check for `runNow`); its errors are logged and swallowed, so one failing job cannot stop
 * the others or the process that hosts them (serve runs this in-process).
 */
export function startScheduler(opts: SchedulerOptions): Scheduler {
  const { store, config, logger, clock } = opts;
  const ctx: JobContext = { store, config, logger, clock };
  const jobs = opts.jobs ?? JOBS;
  const names = jobs.map((j) => j.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`scheduler: job name "${dup}" is registered twice`);

  const running = new Map<string, Promise<void>>();

  // The one place a job runs: records it as in flight, times it, logs the outcome.
  const execute = (job: ScheduledJob, trigger: "schedule" | "manual"): Promise<void> => {
    const startedAt = clock.now();
    const p = (async () => {
      try {
        const summary = await job.run(ctx);
        logger.info("job_done", { job: job.name, trigger, durationMs: clock.now() - startedAt, ...(summary ?? {}) });
      } catch (e) {
        logger.error("job_failed", {
          job: job.name,
          trigger,
          durationMs: clock.now() - startedAt,
          error: e instanceof Error ? e.message.slice(0, 300) : String(e).slice(0, 300),
        });
      } finally {
        running.delete(job.name);
      }
    })();
    running.set(job.name, p);
    return p;
  };

  const crons = jobs.map(
    (job) =>
      new Cron(
        job.schedule,
        {
          timezone: "Etc/UTC",
          // Blocked runs are skipped, not queued: the next tick picks up whatever is still due.
          protect: () => logger.warn("job_skipped_overlap", { job: job.name }),
        },
        () => {
          // A manual run of the same job is invisible to croner's own guard.
          if (running.has(job.name)) return logger.warn("job_skipped_overlap", { job: job.name });
          return execute(job, "schedule");
        },
      ),
  );

  logger.info("scheduler_started", {
    jobs: jobs.map((j, i) => ({ name: j.name, schedule: j.schedule, nextRun: crons[i]!.nextRun()?.toISOString() ?? null })),
  });

  let stopped = false;
  return {
    jobs: names,
    async runNow(name) {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`scheduler: no job named "${name}"`);
      if (stopped || running.has(name)) return false;
      await execute(job, "manual");
      return true;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const c of crons) c.stop();
      await Promise.all(running.values());
      logger.info("scheduler_stopped", {});
    },
  };
}
