import { and, eq } from "drizzle-orm";
import type { Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import { tables, type Store, type StoreDb } from "@ndc/store";

/** (seller client id, CorrelationID, TrxID): what makes two requests the same creation. */
export interface IdempotencyKey {
  clientId: string;
  correlationId: string;
  trxId: string;
}

export type BeginResult =
  /** First of its key: do the work, then complete() (or abandon() if nothing was answered). */
  | { kind: "new" }
  /** Answered before: send these exact bytes and status again. */
  | { kind: "replay"; status: number; body: Uint8Array }
  /** The same key with a different body. */
  | { kind: "conflict" }
  /** Another process holds the key in flight; the caller answers "retry shortly". */
  | { kind: "wait" };

export interface StoredResponse {
  status: number;
  body: Uint8Array;
}

interface Slot {
  done: Promise<void>;
  release(): void;
}

const rowKey = (k: IdempotencyKey) => `${k.clientId}\u0000${k.correlationId}\u0000${k.trxId}`;

/**
 * Stripe-style request idempotency: the first request of a key stores its fingerprint (SHA-256 of
 * the canonical body) with an in-flight lock; its answer is stored byte for byte and replayed to
 * every later request with that fingerprint; another fingerprint is a conflict. Duplicates in
 * this process wait for the first (an in-process lock per key) and then replay it; the table's
 * primary key decides between processes, and a lock older than `lockTtlMs` (its process died)
 * is taken over: the work behind it is a saga keyed the same way, so taking over resumes it.
 */
export class RequestIdempotency {
  private readonly slots = new Map<string, Slot>();
  private readonly lockTtlMs: number;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    opts: { lockTtlMs?: number } = {},
  ) {
    this.lockTtlMs = opts.lockTtlMs ?? 60_000;
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

  /** Stores the answer of a `new` request; later duplicates replay exactly these bytes. */
  async complete(key: IdempotencyKey, status: number, body: Uint8Array | string): Promise<void> {
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    try {
      await this.store.write((tx) =>
        tx
          .update(tables.requestIdempotency)
          .set({ state: "done", responseStatus: status, responseBody: Buffer.from(bytes).toString("base64"), lockedAt: null, completedAt: this.clock.now() })
          .where(where(key)),
      );
    } finally {
      this.slots.get(rowKey(key))?.release();
    }
  }

  /** Gives a `new` key up without an answer (an unexpected failure): the next request starts over. */
  async abandon(key: IdempotencyKey): Promise<void> {
    try {
      await this.store.write((tx) => tx.delete(tables.requestIdempotency).where(and(where(key), eq(tables.requestIdempotency.state, "in_flight"))));
    } finally {
      this.slots.get(rowKey(key))?.release();
    }
  }

  /**
   * begin + the work + complete in one: a conflict is idempotency_conflict, a key in flight in
   * another process request_in_progress; a throw from `work` abandons the key and is rethrown
   * (answers the caller wants replayed, errors included, are returned by `work`, not thrown).
   */
  async run(key: IdempotencyKey, fingerprint: string, work: () => Promise<StoredResponse>): Promise<StoredResponse & { replayed: boolean }> {
    const b = await this.begin(key, fingerprint);
    if (b.kind === "conflict") throw new GatewayError("idempotency_conflict");
    if (b.kind === "wait") throw new GatewayError("request_in_progress", { headers: { "Retry-After": "1" } });
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
    return this.store.write(async (tx) => {
      const now = this.clock.now();
      const row = await read(tx, key);
      if (!row) {
        await tx.insert(tables.requestIdempotency).values({ ...key, fingerprint, state: "in_flight", lockedAt: now, createdAt: now });
        return { kind: "new" };
      }
      if (row.fingerprint !== fingerprint) return { kind: "conflict" };
      if (row.state === "done") return judge(row, fingerprint);
      if (row.lockedAt !== null && row.lockedAt + this.lockTtlMs > now) return { kind: "wait" };
      await tx.update(tables.requestIdempotency).set({ lockedAt: now }).where(where(key));
      return { kind: "new" };
    });
  }
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
  const rows = await db.select().from(tables.requestIdempotency).where(where(key)).limit(1);
  return rows[0];
}
