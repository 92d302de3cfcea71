import { asc, eq } from "drizzle-orm";
import type { StoreDb } from "@ndc/store";
import * as tables from "../tables";

export type ErasureRow = typeof tables.identityDocumentErasures.$inferSelect;

/** The erasure audit, oldest first; of one order when named. */
export async function listErasures(db: StoreDb, orderId?: string): Promise<ErasureRow[]> {
  const e = tables.identityDocumentErasures;
  return db.select().from(e).where(orderId ? eq(e.orderId, orderId) : undefined).orderBy(asc(e.seq)).all();
}
