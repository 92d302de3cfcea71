import { createHash } from "node:crypto";
import { asc, desc } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import { servicingOverrides as A } from "../../tables/servicing-overrides";

/**
 * The audit trail of the airline's fare-rule overrides (spec 4.7 SHPOR1 rule 4; migration 0030):
 * append-only (SQL triggers refuse UPDATE and DELETE) and hash-chained, each row's hash over its
 * fields and the previous row's hash. Written in the transaction of the change it overrides for,
 * so an override is recorded exactly when the change is made.
 */
export interface OverrideEntry {
  at: number;
  staffId: string;
  /** airline_staff: a staff call in process (the console issue's staff API builds on it). */
  channel: string;
  orderId: string;
  operationId: string;
  /** The refusal the fare would have given, and why, in English. */
  ruleCode: string;
  ruleText: string;
}

export interface OverrideRow extends OverrideEntry {
  seq: number;
  prevHash: string;
  hash: string;
}

/** The chain's start: the previous hash of the first row. */
export const GENESIS = "0".repeat(64);

export function hashOf(e: OverrideEntry, prevHash: string): string {
  const fields = [prevHash, String(e.at), e.staffId, e.channel, e.orderId, e.operationId, e.ruleCode, e.ruleText];
  return createHash("sha256").update(fields.join("\u0000")).digest("hex");
}

/** Appends one row inside the caller's transaction (the writer is serialised, so the chain's tail is stable). */
export async function appendOverride(tx: StoreDb, e: OverrideEntry): Promise<void> {
  const [last] = await tx.select({ hash: A.hash }).from(A).orderBy(desc(A.seq)).limit(1);
  const prevHash = last?.hash ?? GENESIS;
  await tx.insert(A).values({ ...e, prevHash, hash: hashOf(e, prevHash) });
}

export async function listOverrides(store: Store): Promise<OverrideRow[]> {
  return store.db.select().from(A).orderBy(asc(A.seq));
}

/** The first row whose link or hash does not hold (seq), or undefined when the whole chain holds. */
export function brokenAt(rows: readonly OverrideRow[]): number | undefined {
  let prev = GENESIS;
  for (const r of rows) {
    if (r.prevHash !== prev || r.hash !== hashOf(r, prev)) return r.seq;
    prev = r.hash;
  }
  return undefined;
}
