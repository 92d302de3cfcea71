import { and, eq } from "drizzle-orm";
import type { StoreDb } from "@ndc/store";
import { staffQueueClaims as C } from "./tables/staff";

/**
 * The work queues a member of staff can take items from: payment steps (spec 3), notification
 * deliveries that ran out of retries, and settlement-plan clearances that are not clear (by ClearanceID).
 */
export type StaffQueue = "reconcile_failed" | "failed_deliveries" | "unclear_clearances";

export interface Claim {
  staffId: string;
  username: string;
  takenAt: number;
}

/**
 * Takes an item for `who` inside the caller's write (with its audit row), from whoever held it:
 * returns that previous holder, so the audit can name whom it was taken from.
 */
export async function takeItem(tx: StoreDb, queue: StaffQueue, itemId: string, who: { staffId: string; username: string }, now: number): Promise<Claim | undefined> {
  const [before] = await tx.select().from(C).where(and(eq(C.queue, queue), eq(C.itemId, itemId)));
  const row = { staffId: who.staffId, username: who.username, takenAt: now };
  await tx.insert(C).values({ queue, itemId, ...row }).onConflictDoUpdate({ target: [C.queue, C.itemId], set: row });
  return before ? { staffId: before.staffId, username: before.username, takenAt: before.takenAt } : undefined;
}

/** Who holds each item of a queue, by item id. */
export async function claimsOf(db: StoreDb, queue: StaffQueue): Promise<Map<string, Claim>> {
  const rows = await db.select().from(C).where(eq(C.queue, queue));
  return new Map(rows.map((r) => [r.itemId, { staffId: r.staffId, username: r.username, takenAt: r.takenAt }]));
}
