import { eq } from "drizzle-orm";
import type { StoreDb } from "@ndc/store";
import * as tables from "../tables";

export interface HeldDocument {
  documentId: string;
  paxId: string;
  /** Epoch ms, when erased (retention sweep, account deletion, a supervisor's erasure). */
  erasedAt?: number;
}

/**
 * Every document an order ever held, live or erased, ids and erasure time only (no personal
 * column is selected): what lets the staff console say "erased on <date>" where a view would
 * only show nothing.
 */
export async function heldDocuments(db: StoreDb, orderId: string): Promise<HeldDocument[]> {
  const d = tables.identityDocuments;
  const rows = await db.select({ documentId: d.documentId, paxId: d.paxId, erasedAt: d.erasedAt, createdAt: d.createdAt }).from(d).where(eq(d.orderId, orderId));
  return rows
    .sort((a, b) => a.createdAt - b.createdAt || a.documentId.localeCompare(b.documentId))
    .map((r) => ({ documentId: r.documentId, paxId: r.paxId, ...(r.erasedAt !== null ? { erasedAt: r.erasedAt } : {}) }));
}
