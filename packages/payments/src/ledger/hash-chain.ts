import { asc, desc, sql } from "drizzle-orm";
import { preparedOnce, tables, type StoreDb } from "@ndc/store";
import { sha256Hex } from "../util";

export type EntryType = "authorise" | "decline" | "capture" | "void" | "refund";

export interface EntryInput {
  orderId: string;
  legId: string;
  type: EntryType;
  amount: number;
  currency: string;
  points?: number;
  idempotencyKey: string;
  at: number;
}

export const GENESIS_HASH = "0".repeat(64);

// The hash covers the entry's position and every field, so editing, deleting, inserting or
// reordering an entry breaks the chain from that point on.
export function entryHash(prevHash: string, seq: number, e: EntryInput): string {
  return sha256Hex([prevHash, seq, e.orderId, e.legId, e.type, e.amount, e.currency, e.points ?? 0, e.idempotencyKey, e.at].join("|"));
}

/** Appends one entry inside the caller's write transaction (writes are serialised, so the tail is stable). */
export async function appendEntry(tx: StoreDb, e: EntryInput): Promise<void> {
  const last = (await selectTail(tx).all()) as { seq: number; hash: string }[];
  const seq = (last[0]?.seq ?? 0) + 1;
  const prevHash = last[0]?.hash ?? GENESIS_HASH;
  await insertEntry(tx).run({ ...e, points: e.points ?? 0, seq, prevHash, hash: entryHash(prevHash, seq, e) });
}

// Prepared once per connection: every ledger entry reads the chain's tail (issue 8).
const E = tables.paymentLedgerEntries;
const selectTail = preparedOnce((db) => db.select({ seq: E.seq, hash: E.hash }).from(E).orderBy(desc(E.seq)).limit(1).prepare());
const ENTRY_COLUMNS = ["seq", "orderId", "legId", "type", "amount", "currency", "points", "idempotencyKey", "at", "prevHash", "hash"] as const;
const insertEntry = preparedOnce((db) => db.insert(E).values(Object.fromEntries(ENTRY_COLUMNS.map((c) => [c, sql.placeholder(c)])) as never).prepare());

export type ChainCheck = { ok: true; entries: number } | { ok: false; entries: number; brokenAt: number };

/** Walks the whole chain; reports the first entry whose link or hash does not hold. */
export async function verifyChain(db: StoreDb): Promise<ChainCheck> {
  const t = tables.paymentLedgerEntries;
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  let count = 0;
  const pageSize = 1000;
  for (let from = 0; ; from += pageSize) {
    const rows = await db.select().from(t).orderBy(asc(t.seq)).limit(pageSize).offset(from);
    for (const r of rows) {
      count++;
      const e: EntryInput = { orderId: r.orderId, legId: r.legId, type: r.type as EntryType, amount: r.amount, currency: r.currency, points: r.points, idempotencyKey: r.idempotencyKey, at: r.at };
      if (r.seq !== expectedSeq || r.prevHash !== prev || r.hash !== entryHash(prev, r.seq, e)) return { ok: false, entries: count, brokenAt: r.seq };
      prev = r.hash;
      expectedSeq++;
    }
    if (rows.length < pageSize) return { ok: true, entries: count };
  }
}
