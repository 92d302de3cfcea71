import { Cron } from "croner";
import type { GatewayConfig } from "@ndc/config";
import type { JobContext, ScheduledJob } from "./job";
import { JOBS } from "./jobs";
import { freeDeadHolder, newHolder, recordNextRuns, releaseLease, takeLease } from "./leases";

/** How long a run's lease keeps other schedulers off the job; a dead holder's lapses after it. Jobs run bounded batches, far shorter. */
export const LEASE_MS = 5 * 60_000;

/**
 * A scheduled run keeps its lease until this long before the job's next tick (at most a quarter of
 * the time to it): enough that a second scheduler's cron for the same tick, a few milliseconds
 * later, finds it taken; short enough that the next tick finds it free.
 */
const TICK_MARGIN_MS = 250;

/** The job's croner pattern under this configuration; null when its interval setting turns it off. */
export function patternOf(job: ScheduledJob, config: GatewayConfig): string | null {
  return typeof job.schedule === "function" ? job.schedule(config) : job.schedule;
}

/**
 * Every job by name, each run once over `ctx` with no lease and no schedule: what the sandbox
 * controls run in whichever process answers them (/sandbox/clock's sweeps, /sandbox/scheduler/run),
 * the same function the scheduler app runs on its schedule. Without the lease because the caller
 * waits for what the run did; a scheduled run of the same job at that moment is harmless, each
 * change being one actor command or one conditional write.
 */
export function jobsByName(ctx: JobContext, jobs: readonly ScheduledJob[] = JOBS): Record<string, () => Promise<Record<string, unknown>>> {
  return Object.fromEntries(jobs.map((j) => [j.name, async () => (await j.run(ctx)) ?? {}]));
}

export interface Scheduler {
  /** Names of the scheduled jobs, in registry order. */
  readonly jobs: readonly string[];
  /**
   * Runs one job now, outside its schedule (operators, tests). Refused with `false` when that
   * job is already running here or another scheduler holds its lease, the rules the schedule follows.
   */
  runNow(name: string): Promise<boolean>;
  /** Stops every schedule, then waits for runs in flight so the store can be closed after it. */
  stop(): Promise<void>;
}

export interface SchedulerOptions extends JobContext {
  /** Defaults to the registry; tests pass their own. */
  jobs?: readonly ScheduledJob[];
  /** Default LEASE_MS. */
  leaseMs?: number;
  /** This scheduler's name in the leases; default host:pid:random. */
  holder?: string;
}

/**
 * Starts croner for each job. A job never overlaps itself (croner `protect`, and the same
 * check for `runNow`); its errors are logged and swallowed, so one failing job cannot stop
 * the others or the process that hosts them.
 */
export function startScheduler(opts: SchedulerOptions): Scheduler {
  const { store, config, logger, clock } = opts;
  const ctx: JobContext = { store, config, logger, clock, notifications: opts.notifications, clearances: opts.clearances, orders: opts.orders };
  const jobs = opts.jobs ?? JOBS;
  const names = jobs.map((j) => j.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`scheduler: job name "${dup}" is registered twice`);

  const running = new Map<string, Promise<boolean>>();
  const holder = opts.holder ?? newHolder();
  const leaseMs = opts.leaseMs ?? LEASE_MS;
  const nextRunOf = new Map<string, () => number | null>();

  // The one place a job runs: takes its lease (another scheduler on this store may hold it),
  // records it as in flight, times it, logs the outcome and gives the lease back with it.
  const execute = (job: ScheduledJob, trigger: "schedule" | "manual"): Promise<boolean> => {
    const p = (async () => {
      try {
        const take = () => takeLease(store, job.name, holder, clock.now(), leaseMs);
        // A holder killed on this host (its pid gone) frees the job at once instead of after its lease.
        if (!(await take()) && !((await freeDeadHolder(store, job.name, clock.now())) && (await take()))) {
          // On schedule this is the normal case beside another scheduler (it ran this tick): not a warning.
          (trigger === "schedule" ? logger.info : logger.warn).call(logger, "job_skipped_locked", { job: job.name, trigger });
          return false;
        }
      } catch (e) {
        logger.error("job_failed", { job: job.name, trigger, error: `lease: ${e instanceof Error ? e.message.slice(0, 300) : String(e)}` });
        return false;
      }
      const startedAt = clock.now();
      let outcome: "done" | "failed" = "done";
      let summary: Record<string, unknown> = {};
      try {
        summary = (await job.run(ctx)) ?? {};
        logger.info("job_done", { job: job.name, trigger, durationMs: clock.now() - startedAt, ...summary });
      } catch (e) {
        outcome = "failed";
        summary = { error: e instanceof Error ? e.message.slice(0, 300) : String(e).slice(0, 300) };
        logger.error("job_failed", { job: job.name, trigger, durationMs: clock.now() - startedAt, ...summary });
      }
      const nextRun = nextRunOf.get(job.name)?.() ?? null;
      const end = clock.now();
      await releaseLease(store, job.name, holder, end, outcome, summary, nextRun, trigger === "schedule" ? keepUntil(end, nextRun) : 0).catch((e) =>
        logger.error("job_release_failed", { job: job.name, error: e instanceof Error ? e.message.slice(0, 300) : String(e) }),
      );
      return true;
    })().finally(() => running.delete(job.name));
    running.set(job.name, p);
    return p;
  };

  // A job whose interval setting is 0 has no cron: it still runs by name (runNow).
  // croner's next tick is wall time; the lease is on the scheduler's clock. The time left to the
  // tick, taken from the wall clock, is carried over to it (every scheduler app of a store runs
  // on the same business clock, so they agree on the lease's end).
  const keepUntil = (now: number, nextRunWall: number | null): number => {
    if (nextRunWall === null) return 0;
    const left = nextRunWall - Date.now();
    return left > 0 ? now + left - Math.min(TICK_MARGIN_MS, left / 4) : 0;
  };

  const crons = jobs.map((job) => {
    const pattern = patternOf(job, config);
    return pattern === null
      ? null
      : new Cron(
        pattern,
        {
          timezone: "Etc/UTC",
          // Blocked runs are skipped, not queued: the next tick picks up whatever is still due.
          protect: () => logger.warn("job_skipped_overlap", { job: job.name }),
        },
        () => {
          // A manual run of the same job is invisible to croner's own guard.
          if (running.has(job.name)) return logger.warn("job_skipped_overlap", { job: job.name });
          return execute(job, "schedule").then(() => undefined);
        },
      );
  });

  crons.forEach((c, i) => nextRunOf.set(jobs[i]!.name, () => c?.nextRun()?.getTime() ?? null));
  const recorded = recordNextRuns(store, jobs.map((j) => ({ job: j.name, at: nextRunOf.get(j.name)!() })), clock.now()).catch((e) =>
    logger.error("scheduler_status_failed", { error: e instanceof Error ? e.message.slice(0, 300) : String(e) }),
  );
  logger.info("scheduler_started", {
    jobs: jobs.map((j, i) => ({ name: j.name, schedule: patternOf(j, config) ?? "off", nextRun: crons[i]?.nextRun()?.toISOString() ?? null })),
  });

  let stopped = false;
  return {
    jobs: names,
    async runNow(name) {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`scheduler: no job named "${name}"`);
      if (stopped || running.has(name)) return false;
      return execute(job, "manual");
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const c of crons) c?.stop();
      await recorded;
      await Promise.all(running.values());
      logger.info("scheduler_stopped", {});
    },
  };
}
