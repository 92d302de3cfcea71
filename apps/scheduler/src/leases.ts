import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { and, eq, lte, or, sql } from "drizzle-orm";
import type { Store } from "@ndc/store";
import { schedulerJobs as J } from "./tables";

/** Who holds a lease: this process, named so `scheduler status` tells an operator where a job runs. */
export function newHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** True when the holder is a process on this host that no longer runs (it was killed mid-run). */
export function holderIsDead(holder: string): boolean {
  const [host, pid] = holder.split(":");
  if (host !== hostname() || !pid || !/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    // ESRCH: no such process. EPERM means it exists under another user: alive.
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Frees the job's lease when its holder is a dead process on this host, so a scheduler restarted
 * after a SIGKILL does not wait out the lease. A holder on another host is left to its lease.
 */
export async function freeDeadHolder(store: Store, job: string, now: number): Promise<boolean> {
  const row = await store.db.select({ holder: J.holder, leaseUntil: J.leaseUntil }).from(J).where(eq(J.job, job)).get();
  if (!row?.holder || row.leaseUntil <= now || !holderIsDead(row.holder)) return false;
  await store.write((tx) => tx.update(J).set({ leaseUntil: 0, updatedAt: now }).where(and(eq(J.job, job), eq(J.holder, row.holder!))).run());
  return true;
}

/**
 * Takes the job's lease until now + ms, when nobody holds it or the holder's lease has lapsed.
 * One conditional write: of two schedulers asking at once, exactly one gets it.
 */
export async function takeLease(store: Store, job: string, holder: string, now: number, ms: number): Promise<boolean> {
  return store.write(async (tx) => {
    await tx.insert(J).values({ job, leaseUntil: 0, updatedAt: now }).onConflictDoNothing().run();
    const got = await tx
      .update(J)
      .set({ holder, leaseUntil: now + ms, lastStartedAt: now, updatedAt: now })
      .where(and(eq(J.job, job), or(lte(J.leaseUntil, now), eq(J.holder, holder))))
      .returning({ job: J.job })
      .all();
    return got.length === 1;
  });
}

/**
 * Gives the lease back with the run's outcome; only the holder's release counts. `keepUntil`: a
 * scheduled run keeps the lease until just before the job's next tick, so another scheduler whose
 * cron fires for the same tick a moment later finds it taken and skips: once per tick, not once
 * per scheduler. 0 (a manual run, or a run that overran its tick) frees it at once.
 */
export async function releaseLease(store: Store, job: string, holder: string, now: number, outcome: "done" | "failed", summary: unknown, nextRunAt: number | null, keepUntil = 0): Promise<void> {
  await store.write((tx) =>
    tx
      .update(J)
      .set({ leaseUntil: keepUntil > now ? keepUntil : 0, lastFinishedAt: now, lastOutcome: outcome, lastSummary: JSON.stringify(summary ?? {}), nextRunAt, updatedAt: now })
      .where(and(eq(J.job, job), eq(J.holder, holder)))
      .run(),
  );
}

/** Records the next run of each job at start, so `scheduler status` shows it before the first run. */
export async function recordNextRuns(store: Store, next: { job: string; at: number | null }[], now: number): Promise<void> {
  await store.write(async (tx) => {
    for (const n of next)
      await tx
        .insert(J)
        .values({ job: n.job, leaseUntil: 0, nextRunAt: n.at, updatedAt: now })
        .onConflictDoUpdate({ target: J.job, set: { nextRunAt: sql`excluded.next_run_at`, updatedAt: now } })
        .run();
  });
}

export interface JobStatus {
  job: string;
  running: boolean;
  holder: string | null;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  lastOutcome: string | null;
  lastSummary: unknown;
  nextRunAt: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What `ndc-gateway scheduler status` prints: every job any scheduler on this store has run or scheduled. */
export async function jobStatus(store: Store, now: number): Promise<JobStatus[]> {
  const rows = await store.db.select().from(J).orderBy(J.job).all();
  return rows.map((r) => {
    // A lease kept after a finished run (releaseLease's keepUntil) is not a run in progress.
    const running = r.leaseUntil > now && (r.lastFinishedAt === null || r.lastStartedAt === null || r.lastFinishedAt < r.lastStartedAt);
    return {
    job: r.job,
    running,
    holder: running ? r.holder : null,
    lastStartedAt: iso(r.lastStartedAt),
    lastFinishedAt: iso(r.lastFinishedAt),
    lastOutcome: r.lastOutcome,
    lastSummary: r.lastSummary ? JSON.parse(r.lastSummary) : null,
    nextRunAt: iso(r.nextRunAt),
    };
  });
}
