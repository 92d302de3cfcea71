import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { preparedOnce, tables, type Store, type StoreDb } from "@ndc/store";
import type { Seller } from "../state";

export type OperationKind = "order_create" | "payment_retry" | "order_add" | "order_cancel" | "order_rename" | "order_change_flight" | "order_cancel_items" | "order_retained_lapse";
/** `answered`: a request answered before its work opened (a refusal); nothing was taken. */
export type OperationStatus = "running" | "done" | "compensated" | "answered";

/** (seller client id, CorrelationID, TrxID): what makes two requests the same operation. */
export interface RequestKey {
  clientId: string;
  correlationId: string;
  trxId: string;
}

/**
 * One operation (issue 8 §1): the request's idempotency record and the saga's recovery record
 * in one row. `phase` is the last recovery point reached, always written in the transaction of
 * the effects it names.
 */
export interface OperationRow<P> {
  operationId: string;
  kind: OperationKind;
  request?: RequestKey;
  fingerprint: string;
  orderId: string;
  owner: Seller;
  phase: string;
  status: OperationStatus;
  plan: P;
  errorCode?: string;
  /** The process whose request holds it in flight (instance id). */
  lockOwner?: string;
  answer?: { status: number; body: Uint8Array };
  createdAt: number;
  updatedAt: number;
}

type Row = typeof tables.operations.$inferSelect;
const T = tables.operations;

/** Reads and phase writes of the operations table; every write runs inside a caller's transaction. */
export class OperationStore {
  constructor(private readonly store: Store) {}

  async load<P>(operationId: string, db: StoreDb = this.store.db): Promise<OperationRow<P> | undefined> {
    const rows = (await statements(db).byId.all({ operationId })) as Row[];
    return rows[0] ? rowOf<P>(rows[0]) : undefined;
  }

  async byRequest<P>(kind: OperationKind, key: RequestKey): Promise<OperationRow<P> | undefined> {
    const rows = (await statements(this.store.db).byRequest.all({ kind, ...key })) as Row[];
    return rows[0] ? rowOf<P>(rows[0]) : undefined;
  }

  /**
   * Operations still running whose last recovery point is at or before `before` (the reconciler's),
   * or whatever their age when their process is known dead (`deadOwners`, liveness/instances.ts);
   * `owner`: that seller client's only.
   */
  async open(before: number, owner?: string, deadOwners: ReadonlySet<string> = new Set()): Promise<OperationRow<unknown>[]> {
    const due = deadOwners.size ? or(lte(T.updatedAt, before), inArray(T.lockOwner, [...deadOwners])) : lte(T.updatedAt, before);
    const rows = await this.store.db.select().from(T).where(and(eq(T.status, "running"), due, owner === undefined ? undefined : eq(T.ownerClientId, owner)));
    return rows.map((r) => rowOf(r));
  }
}

/**
 * The first recovery point, inside the transaction that takes what it names (the holds, the
 * planned legs): a new row, or the row `seen` moved on (a compensated operation's next run, a
 * running one resumed by its own process). Another writer's change since `seen` (a second
 * gateway on the same store) refuses the whole transaction: that request is alive.
 */
export async function writeOpen<P>(tx: StoreDb, next: OperationRow<P>, seen: OperationRow<P> | undefined, instanceId: string, now: number): Promise<void> {
  const plan = JSON.stringify(next.plan);
  if (!seen) {
    await statements(tx).insert.run({
      operationId: next.operationId, kind: next.kind, clientId: next.request?.clientId ?? null, correlationId: next.request?.correlationId ?? null,
      trxId: next.request?.trxId ?? null, fingerprint: next.fingerprint, orderId: next.orderId, ownerClientId: next.owner.clientId,
      ownerAgencyId: next.owner.agencyId, phase: next.phase, plan, lockOwner: instanceId, now,
    });
    return;
  }
  const moved = await statements(tx).reopen.all({ operationId: next.operationId, fingerprint: next.fingerprint, orderId: next.orderId, phase: next.phase, plan, lockOwner: instanceId, now, seenAt: seen.updatedAt });
  if (moved.length !== 1) throw new GatewayError("request_in_progress", { retryAfterSeconds: 1 });
}

/**
 * This process gives up its claim on an operation it no longer drives (liveness/release.ts): its
 * own row, still running, is left without an owner, which any process's retry of the request
 * resumes at once (RequestIdempotency's judge, refuseIfHeldElsewhere) and the reconciler takes
 * ORDERS_RECONCILE_MIN_AGE_MS after `at`, the moment it was given up (so a seller retrying within
 * that time is not raced by the reconciler). A row another process resumed meanwhile (it names that
 * process) or that settled is left as it is. Returns whether the row was released.
 */
export async function writeRelease(tx: StoreDb, operationId: string, instanceId: string, at: number): Promise<boolean> {
  const released = await tx
    .update(T)
    .set({ lockOwner: null, lockedAt: null, updatedAt: sql`CASE WHEN ${T.updatedAt} < ${at} THEN ${at} ELSE ${T.updatedAt} END` })
    .where(and(eq(T.operationId, operationId), eq(T.lockOwner, instanceId), eq(T.status, "running")))
    .returning({ id: T.operationId });
  return released.length === 1;
}

/**
 * A released row (running, no owner) claimed for `instanceId` before anything is done on it: only
 * if it is still as `seenAt` says and still has no owner, so of two retries resuming it at once on
 * two processes exactly one drives it (and compensates it, if it must). Returns whether it did.
 */
export async function writeClaim(tx: StoreDb, operationId: string, instanceId: string, seenAt: number, now: number): Promise<boolean> {
  const claimed = await tx
    .update(T)
    .set({ lockOwner: instanceId, lockedAt: now })
    .where(and(eq(T.operationId, operationId), eq(T.status, "running"), isNull(T.lockOwner), eq(T.updatedAt, seenAt)))
    .returning({ id: T.operationId });
  return claimed.length === 1;
}

/** A later recovery point (committed, done, compensated), inside the transaction of its effects. */
export async function writePhase(tx: StoreDb, operationId: string, phase: string, now: number, opts: { status?: OperationStatus; errorCode?: string } = {}): Promise<void> {
  await statements(tx).phase.run({ operationId, phase, status: opts.status ?? "running", errorCode: opts.errorCode ?? null, now });
}

/**
 * The first answer of a request, stored for replay: onto its operation's row, or as a row of
 * its own when the request was refused before its work opened. Not over another answer, nor
 * over a row another live process holds running. Returns whether it was stored.
 */
export async function writeAnswer(
  tx: StoreDb,
  o: { operationId: string; kind: OperationKind; request: RequestKey; fingerprint: string; status: number; body: Uint8Array; instanceId: string; now: number },
): Promise<boolean> {
  const stored = await statements(tx).answer.all({
    operationId: o.operationId, kind: o.kind, ...o.request, fingerprint: o.fingerprint, responseStatus: o.status,
    responseBody: Buffer.from(o.body).toString("base64"), me: o.instanceId, now: o.now,
  });
  return stored.length === 1;
}

function rowOf<P>(r: Row): OperationRow<P> {
  return {
    operationId: r.operationId,
    kind: r.kind as OperationKind,
    request: r.clientId && r.correlationId && r.trxId ? { clientId: r.clientId, correlationId: r.correlationId, trxId: r.trxId } : undefined,
    fingerprint: r.fingerprint,
    orderId: r.orderId ?? "",
    owner: { clientId: r.ownerClientId ?? r.clientId ?? "", agencyId: r.ownerAgencyId ?? "" },
    phase: r.phase,
    status: r.status as OperationStatus,
    plan: (r.plan ? JSON.parse(r.plan) : {}) as P,
    errorCode: r.errorCode ?? undefined,
    lockOwner: r.lockOwner ?? undefined,
    answer: r.responseStatus !== null && r.responseBody !== null ? { status: r.responseStatus, body: new Uint8Array(Buffer.from(r.responseBody, "base64")) } : undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

const p = sql.placeholder;

// Prepared once per connection: every OrderCreateRQ reads its operation and writes its phases (issue 8).
const statements = preparedOnce((db) => ({
  byId: db.select().from(T).where(eq(T.operationId, p("operationId"))).limit(1).prepare(),
  byRequest: db
    .select()
    .from(T)
    .where(and(eq(T.clientId, p("clientId")), eq(T.correlationId, p("correlationId")), eq(T.trxId, p("trxId")), eq(T.kind, p("kind"))))
    .limit(1)
    .prepare(),
  insert: db
    .insert(T)
    .values({
      operationId: p("operationId"), kind: p("kind"), clientId: p("clientId"), correlationId: p("correlationId"), trxId: p("trxId"),
      fingerprint: p("fingerprint"), orderId: p("orderId"), ownerClientId: p("ownerClientId"), ownerAgencyId: p("ownerAgencyId"),
      phase: p("phase"), status: "running", plan: p("plan"), lockOwner: p("lockOwner"), lockedAt: p("now"), createdAt: p("now"), updatedAt: p("now"),
    })
    .prepare(),
  reopen: db
    .update(T)
    .set({ fingerprint: sql`${p("fingerprint")}`, orderId: sql`${p("orderId")}`, phase: sql`${p("phase")}`, status: "running", plan: sql`${p("plan")}`, errorCode: null, lockOwner: sql`${p("lockOwner")}`, lockedAt: sql`${p("now")}`, updatedAt: sql`${p("now")}` })
    // Not over another process's claim: a row released by its process (writeRelease) may be
    // resumed by two retries at once, and with a business clock standing still both would see
    // the same updatedAt.
    .where(and(eq(T.operationId, p("operationId")), eq(T.updatedAt, p("seenAt")), sql`${T.responseStatus} IS NULL`, sql`(${T.status} <> 'running' OR ${T.lockOwner} IS NULL OR ${T.lockOwner} = ${p("lockOwner")})`))
    .returning({ id: T.operationId })
    .prepare(),
  phase: db
    .update(T)
    .set({ phase: sql`${p("phase")}`, status: sql`${p("status")}`, errorCode: sql`${p("errorCode")}`, updatedAt: sql`${p("now")}` })
    .where(eq(T.operationId, p("operationId")))
    .prepare(),
  // Inserted as `answered` when nothing opened; otherwise onto the row, unless it already has an
  // answer or another process's request holds it running.
  answer: db
    .insert(T)
    .values({
      operationId: p("operationId"), kind: p("kind"), clientId: p("clientId"), correlationId: p("correlationId"), trxId: p("trxId"),
      fingerprint: p("fingerprint"), phase: "none", status: "answered", responseStatus: p("responseStatus"), responseBody: p("responseBody"),
      createdAt: p("now"), updatedAt: p("now"), completedAt: p("now"),
    })
    .onConflictDoUpdate({
      target: T.operationId,
      // A row without a request fingerprint (migrated, or opened outside a request) takes the
      // answered request's: later bodies are judged by it.
      set: {
        fingerprint: sql`CASE WHEN ${T.fingerprint} = '' THEN excluded.fingerprint ELSE ${T.fingerprint} END`,
        responseStatus: sql`excluded.response_status`,
        responseBody: sql`excluded.response_body`,
        lockOwner: null,
        lockedAt: null,
        completedAt: sql`excluded.completed_at`,
      },
      setWhere: sql`${T.responseStatus} IS NULL AND (${T.lockOwner} IS NULL OR ${T.lockOwner} = ${p("me")} OR ${T.status} <> 'running')`,
    })
    .returning({ id: T.operationId })
    .prepare(),
}));
