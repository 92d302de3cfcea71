import { AsyncLocalStorage } from "node:async_hooks";

/** The statements a driver runs for the queue; each may be sync (bun:sqlite) or async (libSQL). */
export interface TransactionControl {
  begin(): unknown;
  commit(): unknown;
  rollback(): unknown;
  savepoint(): unknown;
  release(): unknown;
  rollbackToSavepoint(): unknown;
  /** False once SQLite rolled the whole transaction back on its own (an I/O error, SQLITE_FULL). */
  inTransaction(): boolean;
  /** A statement that must run outside any transaction (pragmas, VACUUM, checkpoints). */
  exec(sql: string): unknown;
  /**
   * Makes every COMMIT so far durable, off the event loop (the bun:sqlite writer commits with
   * synchronous=NORMAL and fsyncs its -wal file on the thread pool). Absent: COMMIT is durable
   * when it returns.
   */
  sync?(): Promise<void>;
}

export interface CommitStats {
  /** write() calls that committed. */
  transactions: number;
  /** COMMITs: transactions / commits is the batch size. */
  commits: number;
}

interface Job {
  work: () => Promise<unknown>;
  /** Runs alone, outside a transaction (store.exec). */
  bare: boolean;
  token: symbol;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/**
 * Group commit (issue 8 §1): the writes of concurrent writers that are ready within one tick
 * share one transaction and so one fsync. Each write runs inside a SAVEPOINT of the batch's
 * transaction, so a write that throws is rolled back alone and fails alone; the others' results
 * are handed back only after the COMMIT returned, so every caller (an actor applying its state)
 * sees its write durable before it acts on it. A COMMIT that fails (or a transaction SQLite
 * aborted) fails every write of the batch: none of them is applied anywhere.
 *
 * With `sync` (the bun:sqlite writer), a batch's writes settle only once the fsync that follows
 * its COMMIT is done, and the next batch is gathered while that fsync runs on the thread pool and
 * committed when it ends: the event loop never waits for the disk, an acknowledged write is
 * durable, and there is one COMMIT per fsync.
 * A failed fsync fails every write of its batches (SQLite has them, the callers do not: each
 * actor reloads from the store before its next command).
 *
 * Writes still run one at a time in call order (SQLite has one writer); a write that calls
 * write() again would wait for itself, so that is refused.
 */
export function commitQueue(tx: TransactionControl, opts: { maxBatch?: number } = {}) {
  const maxBatch = opts.maxBatch ?? 64;
  const context = new AsyncLocalStorage<symbol>();
  const queue: Job[] = [];
  const stats: CommitStats = { transactions: 0, commits: 0 };
  let running: symbol | null = null;
  let draining = false;
  /** Batches committed and waiting for their fsync. */
  let syncing = 0;
  let idleWaiters: (() => void)[] = [];
  const isIdle = () => !draining && syncing === 0;
  const wakeIdle = () => {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };

  const enqueue = <T>(work: () => Promise<T>, bare: boolean): Promise<T> => {
    const caller = context.getStore();
    if (caller !== undefined && caller === running) {
      return Promise.reject(new Error("store.write() called inside another write of the same store: it would wait for itself"));
    }
    return new Promise<T>((resolve, reject) => {
      queue.push({ work, bare, token: Symbol("write"), resolve: resolve as (v: unknown) => void, reject });
      // On a microtask, not a macrotask: writers that become ready in this turn of the event
      // loop join the first batch, and more join while it runs (up to maxBatch); a lone writer
      // does not wait for the loop to come round (a saga's steps would stretch over timers and
      // I/O that run in between, and hold longer than they need). While an fsync is running, the
      // batch waits for it instead (see drain).
      if (!draining && syncing === 0) startDrain();
    });
  };

  const runJob = (job: Job) => {
    running = job.token;
    return context.run(job.token, job.work).finally(() => {
      running = null;
    });
  };

  function startDrain(): void {
    draining = true;
    queueMicrotask(() => void drain());
  }

  /**
   * Runs batches until the queue is empty or an fsync is in flight. A write queued while the
   * previous batch's fsync runs could not be acknowledged before the next fsync anyway, so it
   * waits for the running one to end and joins every write that arrived meanwhile in one COMMIT:
   * one COMMIT per fsync instead of one per turn of the loop (cold shopping's offer saves, the
   * sagas' phases). The fsync's end starts the next batch.
   */
  async function drain(): Promise<void> {
    try {
      while (queue.length && syncing === 0) {
        if (queue[0]!.bare) await runBare(queue.shift()!);
        else await runBatch();
      }
    } finally {
      draining = false;
      wakeIdle();
    }
  }

  async function runBare(job: Job): Promise<void> {
    try {
      job.resolve(await runJob(job));
    } catch (e) {
      job.reject(e);
    }
  }

  /** One transaction: every write queued (and arriving) until the batch is full or a bare job is next. */
  async function runBatch(): Promise<void> {
    const done: { job: Job; result: unknown }[] = [];
    try {
      await tx.begin();
    } catch (e) {
      // Cannot even begin: fail the first write (the rest try again in the next batch). When
      // another process held the lock for the whole wait (actor_busy), every write queued meanwhile
      // has waited as long: all are refused now rather than each waiting once more.
      if ((e as { code?: unknown }).code === "actor_busy") {
        while (queue.length && !queue[0]!.bare) queue.shift()!.reject(e);
      } else queue.shift()!.reject(e);
      return;
    }
    let lost: unknown;
    let taken = 0;
    while (queue.length && !queue[0]!.bare && taken < maxBatch) {
      const job = queue.shift()!;
      taken++;
      try {
        await tx.savepoint();
      } catch (e) {
        // The transaction's connection is gone (a database server restarted: PostgreSQL, decision
        // 0041): nothing of this batch can commit. Never SQLite's case, whose savepoint cannot fail.
        job.reject(e);
        lost = e;
        break;
      }
      try {
        const result = await runJob(job);
        await tx.release();
        done.push({ job, result });
      } catch (e) {
        if (!tx.inTransaction()) {
          // SQLite abandoned the transaction: the writes before this one are gone too.
          job.reject(e);
          lost = e;
          break;
        }
        try {
          await tx.rollbackToSavepoint();
          await tx.release();
        } catch (undo) {
          lost = undo;
        }
        job.reject(e);
        if (lost) break;
      }
    }
    if (lost === undefined) {
      try {
        await tx.commit();
        stats.commits++;
        if (!tx.sync) {
          stats.transactions += done.length;
          for (const d of done) d.job.resolve(d.result);
          return;
        }
        // Not awaited: the next batch is gathered and committed while this one's fsync runs.
        syncing++;
        tx.sync().then(
          () => {
            stats.transactions += done.length;
            for (const d of done) d.job.resolve(d.result);
          },
          (e) => {
            for (const d of done) d.job.reject(e);
          },
        ).finally(() => {
          syncing--;
          if (syncing === 0 && !draining && queue.length) startDrain();
          wakeIdle();
        });
        return;
      } catch (e) {
        lost = e;
      }
    }
    // COMMIT itself failed or the transaction was lost: nothing of this batch is durable.
    if (tx.inTransaction()) {
      try {
        await tx.rollback();
      } catch {}
    }
    for (const d of done) d.job.reject(lost);
  }

  return {
    stats,
    write: <T>(work: () => Promise<T>) => enqueue(work, false),
    exec: (sql: string) => enqueue(async () => void (await tx.exec(sql)), true),
    /** Resolves once every queued write has settled (its fsync included). */
    idle: (): Promise<void> => (isIdle() ? Promise.resolve() : new Promise<void>((r) => idleWaiters.push(r))),
  };
}
