import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { tables, type Store, type StoreDb } from "@ndc/store";
import { writePhase, type OperationRow } from "../operation/store";

/** Failed reconciler passes before an operation becomes a reconcile_failed staff item. */
export const RECONCILE_MAX_ATTEMPTS = 5;

export interface ReconcileFailedItem {
  operationId: string;
  kind: string;
  orderId?: string;
  phase: string;
  attempts: number;
  lastError: string;
  firstFailedAt: number;
  lastFailedAt: number;
  raisedAt: number;
}

const F = tables.reconcileFailures;

/**
 * One failed pass over `op` (a refund still refused, a capture still timing out): counted, and
 * at the last attempt raised as a reconcile_failed staff item, in one write. Returns whether it
 * is raised now.
 */
export async function recordFailure(store: Store, op: OperationRow<unknown>, error: string, now: number): Promise<boolean> {
  return store.write(async (tx) => {
    const [row] = await tx.select().from(F).where(eq(F.operationId, op.operationId));
    const attempts = (row && !row.resolvedAt ? row.attempts : 0) + 1;
    const raisedAt = attempts >= RECONCILE_MAX_ATTEMPTS ? now : null;
    const values = {
      kind: op.kind, orderId: op.orderId || null, phase: op.phase, attempts, lastError: error.slice(0, 500), lastFailedAt: now, raisedAt,
      resolution: null, resolvedBy: null, resolvedAt: null, note: null,
    };
    await tx.insert(F).values({ operationId: op.operationId, firstFailedAt: now, ...values }).onConflictDoUpdate({ target: F.operationId, set: values });
    return raisedAt !== null;
  });
}

/** Operations with failed passes counted (`counting`), and those raised to staff and not resolved (`raised`: the reconciler leaves them alone). */
export async function failureIds(store: Store): Promise<{ raised: Set<string>; counting: Set<string> }> {
  const rows = await store.db.select({ id: F.operationId, raisedAt: F.raisedAt }).from(F).where(isNull(F.resolvedAt));
  return { raised: new Set(rows.filter((r) => r.raisedAt !== null).map((r) => r.id)), counting: new Set(rows.filter((r) => r.raisedAt === null).map((r) => r.id)) };
}

/** A pass that finished the operation clears its count. */
export async function clearFailure(store: Store, operationId: string): Promise<void> {
  await store.write((tx) => tx.delete(F).where(and(eq(F.operationId, operationId), isNull(F.raisedAt))));
}

/**
 * How an item was resolved: `retry` and `closed` (above), or `captured` / `voided` by staff through
 * the payments path (settle.ts). Migration 0055 widens the column's CHECK to the four.
 */
export type ReconcileResolution = "retry" | "closed" | "captured" | "voided";

/** Marks an open item resolved inside the caller's write; an item not open (never raised, already resolved) refuses the whole write. */
export async function markResolved(tx: StoreDb, operationId: string, resolution: ReconcileResolution, by: string, note: string, now: number): Promise<void> {
  const done = await tx
    .update(F)
    .set({ resolution, resolvedBy: by, resolvedAt: now, note: note.slice(0, 500) })
    .where(and(eq(F.operationId, operationId), isNotNull(F.raisedAt), isNull(F.resolvedAt)))
    .returning({ id: F.operationId });
  if (done.length !== 1) throw new GatewayError("request_invalid", { detail: `No open reconcile_failed item ${operationId}.` });
}

export async function listReconcileFailed(store: Store): Promise<ReconcileFailedItem[]> {
  const rows = await store.db.select().from(F).where(and(isNotNull(F.raisedAt), isNull(F.resolvedAt))).orderBy(F.raisedAt);
  return rows.map((r) => ({
    operationId: r.operationId, kind: r.kind, orderId: r.orderId ?? undefined, phase: r.phase, attempts: r.attempts,
    lastError: r.lastError, firstFailedAt: r.firstFailedAt, lastFailedAt: r.lastFailedAt, raisedAt: r.raisedAt!,
  }));
}

/**
 * Staff resolve an item: `retry` (the cause is fixed: the reconciler tries again from zero) or
 * `closed` (settled outside the gateway: the operation is closed as compensated with
 * `resolved_by_staff`, so nothing retries it). In one write, with `alsoInTransaction` (the staff
 * console's audit row).
 */
export async function resolveReconcileFailed(store: Store, operationId: string, resolution: "retry" | "closed", by: string, note: string, now: number, alsoInTransaction?: (tx: StoreDb) => Promise<void>): Promise<void> {
  await store.write(async (tx) => {
    await markResolved(tx, operationId, resolution, by, note, now);
    if (resolution === "closed") {
      const [op] = await tx.select({ phase: tables.operations.phase }).from(tables.operations).where(eq(tables.operations.operationId, operationId));
      await writePhase(tx, operationId, op?.phase ?? "none", now, { status: "compensated", errorCode: "resolved_by_staff" });
    }
    await alsoInTransaction?.(tx);
  });
}
