import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import type { Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import { preparedOnce, tables, type Store, type StoreDb } from "@ndc/store";

/** (seller client id, CorrelationID, TrxID): what makes two requests the same creation. */
export interface IdempotencyKey {
  clientId: string;
  correlationId: string;
  trxId: string;
}

export type BeginResult =
  /** First of its key (or the first to come back after its holder died): do the work, then complete() (or abandon() if nothing was answered). */
  | { kind: "new" }
  /** Answered before: send these exact bytes and status again. */
  | { kind: "replay"; status: number; body: Uint8Array }
  /** The same key with a different body. */
  | { kind: "conflict" }
  /** The work of an earlier request with this key is still unfinished; the caller answers "retry shortly". */
  | { kind: "wait" };

export interface StoredResponse {
  status: number;
  body: Uint8Array;
}

/**
 * What became of the work a key guards (for OrderCreate, the saga with the same ids): `running`
 * (started, neither finished nor undone: the reconciler will decide), `settled` (finished or
 * undone), `none` (never started).
 */
export type GuardedWork = "running" | "settled" | "none";

export interface RequestIdempotencyOptions {
  /** This process's instance id, new at every boot: written on every lock this process takes. */
  owner: string;
  /** Asked about a key found in flight with no request of this process behind it. Default: `none`. */
  workOf?: (key: IdempotencyKey) => Promise<GuardedWork>;
}

interface Slot {
  done: Promise<void>;
  release(): void;
}

const rowKey = (k: IdempotencyKey) => `${k.clientId}\u0000${k.correlationId}\u0000${k.trxId}`;

/**
 * Stripe-style request idempotency: the first request of a key stores its fingerprint (SHA-256 of
 * the canonical body) with an in-flight lock naming the process that took it; its answer is
 * stored byte for byte and replayed to every later request with that fingerprint; another
 * fingerprint is a conflict. Duplicates in this process wait for the first (an in-process lock
 * per key) and then replay it.
 *
 * A lock found in flight once this process's own requests for the key are over was left by a
 * request that died with its process: one gateway process serves a store (its actors are the
 * only writers of their keys, DESIGN 4), so a lock of another instance id is a dead one. It is
 * not an answer. While the work behind it is unfinished the caller is told to retry (the
 * reconciler decides that work, and its decision releases the lock, see releaseLeftBehind);
 * once the work is settled, or if it never started, the lock guards nothing and is taken over.
 */
export class RequestIdempotency {
  private readonly slots = new Map<string, Slot>();
  private readonly owner: string;
  private readonly workOf: (key: IdempotencyKey) => Promise<GuardedWork>;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    opts: RequestIdempotencyOptions,
  ) {
    this.owner = opts.owner;
    this.workOf = opts.workOf ?? (async () => "none");
  }

  async begin(key: IdempotencyKey, fingerprint: string): Promise<BeginResult> {
    const k = rowKey(key);
    for (let slot = this.slots.get(k); slot; slot = this.slots.get(k)) await slot.done;
    // Checked and taken in one synchronous stretch: no other waiter runs in between.
    let release!: () => void;
    const done = new Promise<void>((r) => (release = r));
    const slot: Slot = { done, release: () => { if (this.slots.get(k) === slot) this.slots.delete(k); release(); } };
    this.slots.set(k, slot);
    try {
      const result = await this.claim(key, fingerprint);
      if (result.kind !== "new") slot.release();
      return result;
    } catch (e) {
      slot.release();
      throw e;
    }
  }

  /**
   * Stores the answer of a `new` request; later duplicates replay exactly these bytes. Only
   * while the lock is still this process's: a lock the reconciler released (it settled the work
   * first) is not written back. Returns whether the answer was stored.
   */
  async complete(key: IdempotencyKey, status: number, body: Uint8Array | string): Promise<boolean> {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    try {
      const stored = await this.store.write((tx) =>
        tx
          .update(tables.requestIdempotency)
          .set({ state: "done", responseStatus: status, responseBody: Buffer.from(bytes).toString("base64"), lockedAt: null, owner: null, completedAt: this.clock.now() })
          .where(this.mine(key))
          .returning({ state: tables.requestIdempotency.state }),
      );
      return stored.length === 1;
    } finally {
      this.slots.get(rowKey(key))?.release();
    }
  }

  /** Gives a `new` key up without an answer (an unexpected failure): the next request starts over. */
  async abandon(key: IdempotencyKey): Promise<void> {
    try {
      await this.store.write((tx) => tx.delete(tables.requestIdempotency).where(this.mine(key)));
    } finally {
      this.slots.get(rowKey(key))?.release();
    }
  }

  /**
   * begin + the work + complete in one: a conflict is idempotency_conflict, unfinished work
   * request_in_progress; a throw from `work` abandons the key and is rethrown
   * (answers the caller wants replayed, errors included, are returned by `work`, not thrown).
   */
  async run(key: IdempotencyKey, fingerprint: string, work: () => Promise<StoredResponse>): Promise<StoredResponse & { replayed: boolean }> {
    const b = await this.begin(key, fingerprint);
    if (b.kind === "conflict") throw new GatewayError("idempotency_conflict");
    if (b.kind === "wait") throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
    if (b.kind === "replay") return { status: b.status, body: b.body, replayed: true };
    let res: StoredResponse;
    try {
      res = await work();
    } catch (e) {
      await this.abandon(key);
      throw e;
    }
    await this.complete(key, res.status, res.body);
    return { ...res, replayed: false };
  }

  private async claim(key: IdempotencyKey, fingerprint: string): Promise<BeginResult> {
    // A replay needs no write: answered keys are read from the reader connection.
    const seen = await read(this.store.db, key);
    if (seen?.state === "done") return judge(seen, fingerprint);
    // A key in flight here has no request of this process behind it (this one holds the key's
    // in-process slot): what its work became decides. Asked before the write transaction, which
    // must stay short.
    const work = seen && seen.fingerprint === fingerprint ? await this.workOf(key) : "none";
    return this.store.write(async (tx) => {
      const now = this.clock.now();
      const row = await read(tx, key);
      if (!row) {
        await tx.insert(tables.requestIdempotency).values({ ...key, fingerprint, state: "in_flight", lockedAt: now, owner: this.owner, createdAt: now });
        return { kind: "new" };
      }
      if (row.fingerprint !== fingerprint) return { kind: "conflict" };
      if (row.state === "done") return judge(row, fingerprint);
      // Locked again since it was read (not by this process): that request is alive.
      if (!seen || row.owner !== seen.owner || row.lockedAt !== seen.lockedAt) return { kind: "wait" };
      // Unfinished work is the reconciler's to finish or undo, not a retry's to race.
      if (work === "running") return { kind: "wait" };
      await tx.update(tables.requestIdempotency).set({ lockedAt: now, owner: this.owner }).where(where(key));
      return { kind: "new" };
    });
  }

  /** The key's lock, while it is still this process's. */
  private mine(key: IdempotencyKey) {
    const t = tables.requestIdempotency;
    return and(where(key), eq(t.state, "in_flight"), eq(t.owner, this.owner));
  }
}

/**
 * Inside the transaction that settles the work of `key` (the mark of a saga done or
 * compensated; after a crash, the reconciler's): deletes the in-flight lock a request of
 * another, dead process left on it, so a retry with the same ids is served at once: afresh
 * after a compensation, with the order after a finish. A lock of `owner` (this process)
 * belongs to a request still running here and is kept, to store its answer.
 */
export async function releaseLeftBehind(tx: StoreDb, key: IdempotencyKey, owner: string): Promise<void> {
  await deleteLeftBehind(tx).run({ clientId: key.clientId, correlationId: key.correlationId, trxId: key.trxId, owner });
}

type Row = typeof tables.requestIdempotency.$inferSelect;

function judge(row: Row, fingerprint: string): BeginResult {
  if (row.fingerprint !== fingerprint) return { kind: "conflict" };
  return { kind: "replay", status: row.responseStatus!, body: new Uint8Array(Buffer.from(row.responseBody!, "base64")) };
}

function where(key: IdempotencyKey) {
  const t = tables.requestIdempotency;
  return and(eq(t.clientId, key.clientId), eq(t.correlationId, key.correlationId), eq(t.trxId, key.trxId));
}

async function read(db: StoreDb, key: IdempotencyKey): Promise<Row | undefined> {
  const rows = (await selectKey(db).all({ clientId: key.clientId, correlationId: key.correlationId, trxId: key.trxId })) as Row[];
  return rows[0];
}

// Prepared once per connection: every OrderCreateRQ reads its key twice and settles it (issue 8).
const RI = tables.requestIdempotency;
const byKey = and(eq(RI.clientId, sql.placeholder("clientId")), eq(RI.correlationId, sql.placeholder("correlationId")), eq(RI.trxId, sql.placeholder("trxId")));
const selectKey = preparedOnce((db) => db.select().from(RI).where(byKey).limit(1).prepare());
const deleteLeftBehind = preparedOnce((db) =>
  db
    .delete(RI)
    .where(and(byKey, eq(RI.state, "in_flight"), or(isNull(RI.owner), ne(RI.owner, sql.placeholder("owner")))))
    .prepare(),
);
