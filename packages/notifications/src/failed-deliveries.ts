import { and, asc, eq } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import { notificationDeliveries as D, notificationSubscriptions as S } from "./tables";

export interface FailedDelivery {
  deliveryId: string;
  subscriptionId: string;
  agencyId: string;
  url: string;
  event: string;
  messageName: string;
  orderId?: string;
  attempts: number;
  lastHttpStatus?: number;
  lastError?: string;
  createdAt: number;
  /** When the last attempt failed and the schedule ran out. */
  failedAt: number;
}

/**
 * Deliveries whose retry schedule ran out (status failed), oldest failure first: the airline's
 * staff queue of failed notification deliveries (issue 12 item 7). Never the body. `deliveryId`:
 * that one delivery, if it is failed.
 */
export async function failedDeliveries(db: StoreDb, opts: { limit?: number; deliveryId?: string } = {}): Promise<FailedDelivery[]> {
  const rows = await db
    // Named columns: the body is never read here.
    .select({
      d: { deliveryId: D.deliveryId, subscriptionId: D.subscriptionId, event: D.event, messageName: D.messageName, orderId: D.orderId, attempts: D.attempts, lastHttpStatus: D.lastHttpStatus, lastError: D.lastError, createdAt: D.createdAt, updatedAt: D.updatedAt },
      agencyId: S.agencyId,
      url: S.url,
    })
    .from(D)
    .innerJoin(S, eq(S.subscriptionId, D.subscriptionId))
    .where(and(eq(D.status, "failed"), opts.deliveryId !== undefined ? eq(D.deliveryId, opts.deliveryId) : undefined))
    .orderBy(asc(D.updatedAt), asc(D.deliveryId))
    .limit(opts.limit ?? 200);
  return rows.map(({ d, agencyId, url }) => ({
    deliveryId: d.deliveryId, subscriptionId: d.subscriptionId, agencyId, url, event: d.event, messageName: d.messageName,
    ...(d.orderId ? { orderId: d.orderId } : {}), attempts: d.attempts,
    ...(d.lastHttpStatus !== null ? { lastHttpStatus: d.lastHttpStatus } : {}), ...(d.lastError ? { lastError: d.lastError } : {}),
    createdAt: d.createdAt, failedAt: d.updatedAt,
  }));
}

/** The columns that put a delivery back in line for its next attempt now (same webhook-id and body). */
export const requeued = (now: number) => ({ status: "pending" as const, nextAttemptAt: now, updatedAt: now });

/**
 * Staff redeliver a failed delivery: it is pending again, due now, and the dispatcher sends it with
 * the same webhook-id and body. `alsoInTransaction` writes the staff audit row in the same write.
 * False when no failed delivery has this id (unknown, or not failed).
 */
export async function redeliverFailed(store: Store, deliveryId: string, now: number, alsoInTransaction?: (tx: StoreDb) => Promise<void>): Promise<boolean> {
  return store.write(async (tx) => {
    const done = await tx.update(D).set(requeued(now)).where(and(eq(D.deliveryId, deliveryId), eq(D.status, "failed"))).returning({ id: D.deliveryId });
    if (done.length !== 1) return false;
    await alsoInTransaction?.(tx);
    return true;
  });
}
