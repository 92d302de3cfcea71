import { AsyncLocalStorage } from "node:async_hooks";
import type { KeyedLock } from "@ndc/actors";
import type { Store } from "@ndc/store";
import { writeRelease } from "../operation/store";

/** The first try again after a failed release, doubling up to RELEASE_RETRY_MAX_MS (each jittered). */
const RELEASE_RETRY_FIRST_MS = 50;
/**
 * At most this long between tries: a seller told Retry-After: 1 should find the operation
 * released at its next retry once the store is back (PostgreSQL's pool reconnects in about 0.3 s).
 */
const RELEASE_RETRY_MAX_MS = 500;

/**
 * The operations this process gave up part-way (decision 0040, "abandoned by its own process"):
 * a saga that failed with a transient store failure (the database out of reach, its write lock
 * held too long) is driven by nobody any more, and this process knows it; but its row still names
 * this live process as the owner, so another process's retry would be told request_in_progress
 * until the reconciler's LIVE_OWNER_GRACE_MS (10 minutes). Its claim is released instead
 * (writeRelease: no owner), and the next retry, on any process, resumes the saga at once.
 *
 * The store is usually still out of reach when the saga fails, so the write is tried again in the
 * background, with backoff, until it lands or the process stops. Each try takes the operation's
 * lock, the one every driver of an operation in this process holds (the request, its saga, the
 * reconciler): a retry of the request here meanwhile resumes the saga itself, and the try after it
 * finds the row settled, or failed again and so released after that run too.
 */
export class ClaimReleases {
  private readonly pending = new Map<string, { at: number; timer?: ReturnType<typeof setTimeout> }>();
  /** Given up again while a try was under way: one more try after it. */
  private readonly again = new Map<string, number>();
  private stopped = false;
  /**
   * Tries run outside the context of the request that failed: the operation lock is reentrant by
   * async context, and a try inheriting the failed request's hold would not wait for a retry of
   * this process that holds the lock now. Captured at construction, outside any request.
   */
  private readonly detached = AsyncLocalStorage.snapshot();

  constructor(
    private readonly store: Store,
    private readonly lock: KeyedLock,
    private readonly instanceId: string,
  ) {}

  /** Releases this process's claim on `operationId`, given up at business time `at`, in the background. */
  release(operationId: string, at: number): void {
    if (this.stopped) return;
    const p = this.pending.get(operationId);
    if (p) {
      if (p.timer === undefined) this.again.set(operationId, Math.max(at, this.again.get(operationId) ?? at));
      else p.at = Math.max(p.at, at);
      return;
    }
    this.pending.set(operationId, { at });
    this.detached(() => this.schedule(operationId, 0));
  }

  /** Operations given up and not released yet (tests, metrics). */
  get waiting(): number {
    return this.pending.size;
  }

  /**
   * A process stopping in order: one last try of each (its liveness row goes next, and an owner
   * with no row is never judged dead), then no more.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const left = [...this.pending.entries()];
    for (const [, p] of left) clearTimeout(p.timer);
    this.pending.clear();
    this.again.clear();
    await Promise.all(left.map(([id, p]) => this.tryOnce(id, p.at)));
  }

  private schedule(operationId: string, attempt: number): void {
    const p = this.pending.get(operationId);
    if (!p || this.stopped) return;
    const ms = attempt === 0 ? 0 : Math.min(RELEASE_RETRY_FIRST_MS * 2 ** (attempt - 1), RELEASE_RETRY_MAX_MS) * (0.5 + Math.random());
    p.timer = setTimeout(async () => {
      p.timer = undefined;
      const landed = await this.tryOnce(operationId, p.at);
      if (this.stopped || this.pending.get(operationId) !== p) return;
      if (!landed) return this.schedule(operationId, attempt + 1);
      const again = this.again.get(operationId);
      this.again.delete(operationId);
      if (again === undefined) return void this.pending.delete(operationId);
      p.at = again;
      this.schedule(operationId, 0);
    }, ms);
    // The tries alone must not keep a process alive.
    (p.timer as { unref?: () => void }).unref?.();
  }

  /** One try; whether the write landed (the row released, or nothing of this process's left to release). */
  private async tryOnce(operationId: string, at: number): Promise<boolean> {
    try {
      await this.lock.run(operationId, () => this.store.write((tx) => writeRelease(tx, operationId, this.instanceId, at)));
      return true;
    } catch {
      return false;
    }
  }
}
