import { AsyncLocalStorage } from "node:async_hooks";
import type { KeyedLock } from "@ndc/actors";
import type { Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import type { Store } from "@ndc/store";
import { OperationStore, writeAnswer, type OperationKind, type RequestKey } from "../operation/store";

/** (seller client id, CorrelationID, TrxID): what makes two requests the same creation. */
export type IdempotencyKey = RequestKey;

export type BeginResult =
  /** First of its key (or the first to come back after its holder died or gave up): do the work, then complete(). */
  | { kind: "new" }
  /** Answered before: send these exact bytes and status again. */
  | { kind: "replay"; status: number; body: Uint8Array }
  /** The same key with a different body. */
  | { kind: "conflict" }
  /** The work of an earlier request with this key is still unfinished in another process; the caller answers "retry shortly". */
  | { kind: "wait" };

export interface StoredResponse {
  status: number;
  body: Uint8Array;
}

export interface RequestIdempotencyOptions {
  /** This process's instance id, new at every boot: the lock owner the operations it opens carry. */
  owner: string;
  /** The one per-operation lock, shared with the saga and the reconciler (reentrant). */
  lock: KeyedLock;
  kind?: OperationKind;
  /** The operation id a request's key names (for OrderCreate, ids.createSaga). */
  operationIdOf(key: IdempotencyKey): string;
  /** Settles the operation when the process running it is known dead; true if it did (reconcile/take-over.ts). */
  takeOver?(operationId: string): Promise<boolean>;
}

interface RunningRequest {
  key: IdempotencyKey;
  fingerprint: string;
  /** Set when the work found its answer must not be kept for the key (see notTheKeysAnswer). */
  keep: boolean;
  /** The operation this request's key names, when begin() read that it has no row (see unseenOperation). */
  unseen?: string;
}
const current = new AsyncLocalStorage<RunningRequest>();

/**
 * The request whose work is running here (inside RequestIdempotency.run): the operation it
 * opens stores this request's fingerprint, which later requests are judged by.
 */
export function currentRequest(): RunningRequest | undefined {
  return current.getStore();
}

/**
 * Whether the request running here read, under this operation's lock, that the operation has no
 * row: the saga it runs then opens it without reading the row again (runSaga), since what begin()
 * read a moment before under the same lock is what that read would say in this process. A row
 * another process inserted in between is met by the open write's insert, which its primary key
 * refuses (request_in_progress, saga/phase-write.ts), as it was for a row inserted after the read.
 * Answered true once per request.
 */
export function unseenOperation(operationId: string): boolean {
  const r = current.getStore();
  if (r?.unseen !== operationId) return false;
  // Once: a second run of the saga in this request (its open write may have committed) reads.
  r.unseen = undefined;
  return true;
}

/**
 * Called by the work when it refuses the request as another body under a key whose row has no
 * fingerprint (an operation migrated without its request's row, 0015): that refusal is
 * answered but not stored, or the key's own request, retried, would be answered with it.
 */
export function notTheKeysAnswer(): void {
  const r = current.getStore();
  if (r) r.keep = false;
}

/**
 * Stripe-style request idempotency over the operations table (issue 8 §1): the request's
 * record IS its operation's row, so taking the key costs no write of its own. A request runs
 * under its operation's lock (the same lock the saga and the reconciler take), so duplicates in
 * this process wait for the first and replay its answer; the operation's open phase writes the
 * fingerprint and this process as the lock owner together with the holds; the first answer
 * (an order, or a refusal) is stored byte for byte by complete() and replayed to every later
 * request with that fingerprint; another fingerprint is a conflict.
 *
 * A row found running under another instance's lock (that process died, or a second gateway
 * on the same store is running it) is not an answer: the caller is told to retry while its
 * work is unfinished (the reconciler finishes or compensates it). Settled work without an
 * answer (the reconciler's, or this process's request that failed transiently) is taken over.
 * Across processes the operation row's primary key and the open phase's check of the row it saw
 * let one request open the work; the other is told request_in_progress.
 */
export class RequestIdempotency {
  private readonly ops: OperationStore;
  private readonly kind: OperationKind;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly opts: RequestIdempotencyOptions,
  ) {
    this.ops = new OperationStore(store);
    this.kind = opts.kind ?? "order_create";
  }

  /** Reads only: what a request with this key and fingerprint should do. */
  async begin(key: IdempotencyKey, fingerprint: string): Promise<BeginResult> {
    return (await this.read(key, fingerprint)).result;
  }

  /** begin(), and whether no operation row existed for the key (`unseen`, see unseenOperation). */
  private async read(key: IdempotencyKey, fingerprint: string): Promise<{ result: BeginResult; unseen: boolean }> {
    const row = await this.ops.byRequest(this.kind, key);
    return { result: this.judge(row, fingerprint), unseen: !row };
  }

  private judge(row: Awaited<ReturnType<OperationStore["byRequest"]>>, fingerprint: string): BeginResult {
    if (!row) return { kind: "new" };
    // No fingerprint: a saga migrated without its request's row; the saga's plan judges the body.
    if (row.fingerprint && row.fingerprint !== fingerprint) return { kind: "conflict" };
    if (row.answer) return { kind: "replay", ...row.answer };
    if (row.status === "running" && row.lockOwner !== undefined && row.lockOwner !== this.opts.owner) return { kind: "wait" };
    return { kind: "new" };
  }

  /** Stores the first answer of a `new` request (one write). Returns whether it was stored. */
  async complete(key: IdempotencyKey, status: number, body: Uint8Array | string, fingerprint = ""): Promise<boolean> {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    const operationId = this.opts.operationIdOf(key);
    return this.store.write((tx) =>
      writeAnswer(tx, { operationId, kind: this.kind, request: key, fingerprint, status, body: bytes, instanceId: this.opts.owner, now: this.clock.now() }),
    );
  }

  /**
   * Gives a `new` key up without an answer (an unexpected or transient failure). Nothing to
   * write: a request takes no lock row of its own, and the work it opened is either settled
   * (compensated: the next request runs afresh) or still running under this process's lock,
   * which the next request of this process resumes and the reconciler finishes; given up by a
   * transient store failure, the saga runner has its claim released (liveness/release.ts), so
   * the next request on any process resumes it.
   */
  async abandon(_key: IdempotencyKey): Promise<void> {}

  /**
   * begin + the work + complete, under the operation's lock: a conflict is idempotency_conflict,
   * unfinished work request_in_progress; a throw from `work` is rethrown and nothing stored
   * (answers the caller wants replayed, errors included, are returned by `work`, not thrown).
   */
  run(key: IdempotencyKey, fingerprint: string, work: () => Promise<StoredResponse>): Promise<StoredResponse & { replayed: boolean }> {
    return this.opts.lock.run(this.opts.operationIdOf(key), async () => {
      let { result: b, unseen } = await this.read(key, fingerprint);
      if (b.kind === "conflict") throw new GatewayError("idempotency_conflict");
      if (b.kind === "wait") {
        // Another process's work: waited for while it lives, settled here when it is dead.
        if (!(await this.opts.takeOver?.(this.opts.operationIdOf(key)))) throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
        ({ result: b, unseen } = await this.read(key, fingerprint));
        if (b.kind === "conflict") throw new GatewayError("idempotency_conflict");
        if (b.kind === "wait") throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
      }
      if (b.kind === "replay") return { status: b.status, body: b.body, replayed: true };
      const running: RunningRequest = { key, fingerprint, keep: true, ...(unseen ? { unseen: this.opts.operationIdOf(key) } : {}) };
      const res = await current.run(running, work);
      if (running.keep) await this.complete(key, res.status, res.body, fingerprint);
      return { ...res, replayed: false };
    });
  }
}
