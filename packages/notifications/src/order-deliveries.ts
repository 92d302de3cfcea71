import { asc, eq } from "drizzle-orm";
import type { StoreDb } from "@ndc/store";
import { notificationDeliveries as D } from "./tables";

export interface OrderDelivery {
  deliveryId: string;
  subscriptionId: string;
  event: string;
  messageName: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastHttpStatus?: number;
  lastError?: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * The notifications written about one order, oldest first, for the airline's staff (issue 12 item
 * 3): what was sent, to which subscription, and the last answer. Never the body.
 */
export async function orderDeliveries(db: StoreDb, orderId: string): Promise<OrderDelivery[]> {
  const rows = await db
    .select({ deliveryId: D.deliveryId, subscriptionId: D.subscriptionId, event: D.event, messageName: D.messageName, status: D.status, attempts: D.attempts, lastHttpStatus: D.lastHttpStatus, lastError: D.lastError, createdAt: D.createdAt, updatedAt: D.updatedAt })
    .from(D)
    .where(eq(D.orderId, orderId))
    .orderBy(asc(D.createdAt), asc(D.deliveryId));
  return rows.map((r) => ({
    deliveryId: r.deliveryId, subscriptionId: r.subscriptionId, event: r.event, messageName: r.messageName, status: r.status as OrderDelivery["status"], attempts: r.attempts,
    ...(r.lastHttpStatus !== null ? { lastHttpStatus: r.lastHttpStatus } : {}), ...(r.lastError !== null ? { lastError: r.lastError } : {}),
    createdAt: r.createdAt, updatedAt: r.updatedAt,
  }));
}
