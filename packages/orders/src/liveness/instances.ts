import { hostname } from "node:os";
import { eq } from "drizzle-orm";
import { databaseNow, type Store } from "@ndc/store";
import { instances as I } from "../tables/instances";

/**
 * Which processes are alive, for the operations they own (operations.lock_owner): the reconciler
 * takes over a running operation of a dead owner at once, and a retry of its request settles it
 * instead of waiting (docs/decisions/0040). Real time throughout: a seller's sandbox clock moves
 * business time, not processes. By default the database's clock (databaseNow): processes on
 * several machines whose clocks disagree then write and judge heartbeats on one clock (0041).
 */

/** How often a process moves its heartbeat. One small write; never per request. */
export const HEARTBEAT_EVERY_MS = 5_000;
/**
 * A heartbeat older than this: the process is gone (or stalled so long its work is fair game).
 * On one host a killed process is known dead at once by its pid; the lapse is for the rest (a
 * stalled process, containers whose host names differ).
 */
export const HEARTBEAT_LAPSE_MS = 30_000;

/**
 * How old an operation a live process still owns must be before another process's reconciler
 * takes it over, whatever ORDERS_RECONCILE_MIN_AGE_MS says: every request has long ended by then
 * (the HTTP idle timeout, the PSP's), so the owner abandoned it; younger, the owner may still be
 * driving it, and two drivers of one saga would race each other at the PSP (decision 0040).
 */
export const LIVE_OWNER_GRACE_MS = 10 * 60_000;

export interface Heartbeat {
  /** Stops the heartbeat and removes this process's row (a process stopping in order). */
  stop(): Promise<void>;
}

/** Writes this process's row now and moves its heartbeat every HEARTBEAT_EVERY_MS until stop(). */
export async function announceInstance(store: Store, instanceId: string, realNow: () => number | Promise<number> = () => databaseNow(store)): Promise<Heartbeat> {
  const at = await realNow();
  const row = { instanceId, host: hostname(), pid: process.pid, startedAt: at, heartbeatAt: at };
  // The store's write as it is now, bound: the heartbeat is no request's work, so a count of a
  // request's writes installed on the store later (test/support/count-writes.ts) never sees it.
  const write = store.write.bind(store);
  await write((tx) => tx.insert(I).values(row).onConflictDoUpdate({ target: I.instanceId, set: { heartbeatAt: row.heartbeatAt } }).run());
  let beating: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    // A missed beat (the writer busy past its wait) is no failure: the next one comes soon.
    beating = Promise.resolve(realNow())
      .then((at) => write((tx) => tx.update(I).set({ heartbeatAt: at }).where(eq(I.instanceId, instanceId)).run()))
      .catch(() => undefined);
  }, HEARTBEAT_EVERY_MS);
  // The heartbeat alone must not keep a process alive.
  (timer as { unref?: () => void }).unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await beating;
      await write((tx) => tx.delete(I).where(eq(I.instanceId, instanceId)).run()).catch(() => undefined);
    },
  };
}

/**
 * The instances known dead: a heartbeat older than HEARTBEAT_LAPSE_MS, or a process of this host
 * whose pid no longer runs (killed: no need to wait for the lapse). An owner with no row is NOT
 * known dead (a process that never announced itself, such as a CLI command's, or one from before
 * this table): its operations wait for the reconciler's minimum age as before.
 */
export async function deadInstances(store: Store, realNow?: number): Promise<Set<string>> {
  return (await instancesByLife(store, realNow)).dead;
}

/** Every announced instance, known dead (as deadInstances) or known alive (its heartbeat fresh, its pid running). */
export async function instancesByLife(store: Store, realNow?: number): Promise<{ dead: Set<string>; alive: Set<string> }> {
  const now = realNow ?? (await databaseNow(store));
  const dead = new Set<string>();
  const alive = new Set<string>();
  for (const r of await store.db.select().from(I).all()) {
    if (r.heartbeatAt < now - HEARTBEAT_LAPSE_MS || pidGone(r.host, r.pid)) dead.add(r.instanceId);
    else alive.add(r.instanceId);
  }
  return { dead, alive };
}

/**
 * The processes that may be running on this database now (not known dead: heartbeat within the
 * lapse and, on this host, the pid running), with where they run: `migrate --to` refuses while
 * any is, naming them, since a copy taken under a live gateway would miss its later writes.
 */
export async function liveInstances(store: Store, realNow?: number): Promise<Array<{ instanceId: string; host: string; pid: number; heartbeatAt: number }>> {
  const { alive } = await instancesByLife(store, realNow);
  const rows = await store.db.select().from(I).all();
  return rows.filter((r) => alive.has(r.instanceId)).map((r) => ({ instanceId: r.instanceId, host: r.host, pid: r.pid, heartbeatAt: r.heartbeatAt }));
}

/** Whether `owner` is known dead (one row read). */
export async function isDeadInstance(store: Store, owner: string, realNow?: number): Promise<boolean> {
  const r = await store.db.select().from(I).where(eq(I.instanceId, owner)).get();
  if (r === undefined) return false;
  return r.heartbeatAt < (realNow ?? (await databaseNow(store))) - HEARTBEAT_LAPSE_MS || pidGone(r.host, r.pid);
}

/** A process of this host that no longer runs (the scheduler's lease rule, apps/scheduler/src/leases.ts). */
function pidGone(host: string, pid: number): boolean {
  if (host !== hostname() || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    // ESRCH: no such process. EPERM: it exists under another user, alive.
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}
