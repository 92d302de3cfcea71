import { and, asc, desc, eq, gt, type SQL } from "drizzle-orm";
import { afterCommit, type Store, type StoreDb } from "@ndc/store";
import { advanceAnchor, readAnchor, type Anchor } from "./audit-anchor";
import { auditMac, GENESIS, legacyAuditHash, type AuditChain } from "./audit-chain";
import { staffAudit as T } from "./tables/staff";

/**
 * The staff audit trail (issue 12 item 2; migration 0050): every staff action with who, when,
 * from where, which order or document, what and why. Append-only (SQL triggers refuse UPDATE
 * and DELETE) and chained: each row's hash is an HMAC-SHA-256, under a key held outside the
 * database (audit-chain.ts), of its fields and the previous row's hash, so an edited or removed
 * row breaks the chain from there on, and whoever can write the database but not read the key
 * cannot rebuild it. The anchor (audit-anchor.ts) names the last row outside the database, so
 * rows cut from the end are missed too (`ndc-gateway staff audit verify`). Never a document number, a password,
 * a TOTP code or a session token: a reveal names the document only.
 */
export type AuditAction =
  | "staff.login"
  | "staff.logout"
  | "orders.search"
  | "order.view"
  | "pii.reveal"
  | "pii.erase"
  | "audit.view"
  | "audit.export"
  | "queue.view"
  | "queue.take"
  | "reconcile_failed.resolve"
  | "delivery.redeliver"
  | "sellers.view"
  | "seller.suspend"
  | "seller.rotate"
  | "seller.register"
  | "seller.scopes"
  | "seller.agencies"
  | "agency.register"
  | "agency.activate"
  | "agency.deactivate"
  | "seller.resume"
  | "dashboard.view"
  | "sellers.traffic"
  | "order.options"
  | "order.quote"
  | "order.cancel"
  | "order.cancel_items"
  | "order.change"
  | "order.add"
  | "order.rename"
  | "signature.original"
  | "clearance.clear"
  | "clearance.rerequest"
  | "agreements.view"
  | "commission.set"
  | "signing.key_add"
  | "signing.key_revoke"
  | "signing.policy"
  | "settlement.view"
  | "settlement.open"
  | "settlement.close"
  | "promotions.view"
  | "promotions.criteria";

/** ok: done; refused: the role may not (403); failed: the credentials or the target did not hold. */
export type AuditOutcome = "ok" | "refused" | "failed" | "locked";

export interface AuditEntry {
  at: number;
  staffId: string;
  username: string;
  role: string;
  /** The caller's address as the socket saw it ("unknown" in process). */
  remote: string;
  action: AuditAction;
  outcome: AuditOutcome;
  orderId?: string;
  documentRef?: string;
  reasonCategory?: string;
  reason?: string;
  /** English, never personal data: what was asked (search filters' names), or why it failed. */
  detail?: string;
}

export interface AuditRow extends AuditEntry {
  seq: number;
  prevHash: string;
  hash: string;
}

/**
 * Appends one row inside the caller's write transaction (writes are serialised, so the tail is
 * stable), and moves the anchor to it once the write is durable. The first append under a data
 * directory with no anchor writes one for the trail as it stands (the chain's start: rows written
 * before it was keyed are sealed by it), before the row, so a trail with keyed rows always has one.
 * The anchor moves only while the row it names is still on the trail as anchored: a trail cut
 * short or rewritten keeps its old anchor, so the next action does not paper over it.
 */
export async function appendAudit(tx: StoreDb, chain: AuditChain, e: AuditEntry): Promise<void> {
  const [last] = await tx.select({ seq: T.seq, hash: T.hash }).from(T).orderBy(desc(T.seq)).limit(1);
  const prevHash = last?.hash ?? GENESIS;
  let anchor = readAnchor(chain);
  if (anchor === null) advanceAnchor(chain, (anchor = { seq: last?.seq ?? 0, hash: prevHash }));
  const hash = auditMac(chain, e, prevHash);
  const [row] = await tx.insert(T).values({ ...e, prevHash, hash }).returning({ seq: T.seq });
  if (await stillAnchored(tx, anchor)) afterCommit(tx, () => advanceAnchor(chain, { seq: row!.seq, hash }));
}

/** Whether the anchored row is on the trail with the hash anchored (seq 0: the empty trail's start). */
async function stillAnchored(tx: StoreDb, anchor: Anchor | "invalid"): Promise<boolean> {
  if (anchor === "invalid") return false;
  if (anchor.seq === 0) return anchor.hash === GENESIS;
  const [at] = await tx.select({ hash: T.hash }).from(T).where(eq(T.seq, anchor.seq)).limit(1);
  return at?.hash === anchor.hash;
}

/** One audit row in a write of its own (an action that writes nothing else: a view, a refusal). */
export function recordAudit(store: Store, chain: AuditChain, e: AuditEntry): Promise<void> {
  return store.write((tx) => appendAudit(tx, chain, e));
}

const rowOf = (r: typeof T.$inferSelect): AuditRow => ({
  seq: r.seq, at: r.at, staffId: r.staffId, username: r.username, role: r.role, remote: r.remote,
  action: r.action as AuditAction, outcome: r.outcome as AuditOutcome,
  ...(r.orderId !== null ? { orderId: r.orderId } : {}),
  ...(r.documentRef !== null ? { documentRef: r.documentRef } : {}),
  ...(r.reasonCategory !== null ? { reasonCategory: r.reasonCategory } : {}),
  ...(r.reason !== null ? { reason: r.reason } : {}),
  ...(r.detail !== null ? { detail: r.detail } : {}),
  prevHash: r.prevHash, hash: r.hash,
});

export interface AuditQuery {
  action?: string;
  orderId?: string;
  /** Rows after this seq (paging forward); default from the start. */
  after?: number;
  /** 1..1000, default 200. */
  limit?: number;
}

/** Rows oldest first, filtered by action and order. */
export async function queryAudit(db: StoreDb, q: AuditQuery = {}): Promise<AuditRow[]> {
  const where: SQL[] = [];
  if (q.action) where.push(eq(T.action, q.action));
  if (q.orderId) where.push(eq(T.orderId, q.orderId));
  if (q.after !== undefined) where.push(gt(T.seq, q.after));
  const rows = await db
    .select()
    .from(T)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(T.seq))
    .limit(Math.min(Math.max(q.limit ?? 200, 1), 1000));
  return rows.map(rowOf);
}

/**
 * ok: every row links and its MAC holds (`legacy` rows, from before the chain was keyed, only at
 * its start), and the anchor names a row the trail holds (`anchoredAt`; `afterAnchor` rows came
 * after it: written since, their anchor update lost to a crash). Not ok: `brokenAt` the first row
 * that does not hold, or the anchor's seq when the trail no longer reaches it; `why` in English
 * when it is about the anchor.
 */
export type AuditCheck =
  | { ok: true; rows: number; legacy: number; anchoredAt: number | null; afterAnchor: number }
  | { ok: false; rows: number; brokenAt: number; why?: string };

/** Walks the whole chain in pages, then holds its end against the anchor. */
export async function verifyAudit(db: StoreDb, chain: AuditChain): Promise<AuditCheck> {
  const anchor = readAnchor(chain);
  let prev = GENESIS;
  let count = 0;
  let legacy = 0;
  let after = 0;
  let atAnchor: AuditRow | undefined;
  let countAtAnchor = 0;
  for (;;) {
    const rows = await queryAudit(db, { after, limit: 1000 });
    for (const r of rows) {
      count++;
      const keyed = r.prevHash === prev && r.hash === auditMac(chain, r, prev);
      // Unkeyed rows are the trail's start or nothing: one after a keyed row is a rewrite.
      if (!keyed && (legacy !== count - 1 || r.prevHash !== prev || r.hash !== legacyAuditHash(r, prev))) return { ok: false, rows: count, brokenAt: r.seq };
      if (!keyed) legacy++;
      if (anchor && anchor !== "invalid" && r.seq === anchor.seq) [atAnchor, countAtAnchor] = [r, count];
      prev = r.hash;
      after = r.seq;
    }
    if (rows.length === 1000) continue;
    const keyedRows = count - legacy;
    if (anchor === "invalid") return { ok: false, rows: count, brokenAt: 0, why: "the anchor file does not hold its MAC (edited, or written under another key)" };
    if (anchor === null) {
      if (keyedRows > 0) return { ok: false, rows: count, brokenAt: 0, why: "the anchor file is missing" };
      return { ok: true, rows: count, legacy, anchoredAt: null, afterAnchor: count };
    }
    const reached = anchor.seq === 0 ? anchor.hash === GENESIS : atAnchor !== undefined;
    if (!reached) return { ok: false, rows: count, brokenAt: anchor.seq, why: `the anchor names seq ${anchor.seq}, which the trail (ending at seq ${after}) no longer holds: rows were removed` };
    if (atAnchor && atAnchor.hash !== anchor.hash) return { ok: false, rows: count, brokenAt: anchor.seq, why: `the row at seq ${anchor.seq} is not the one anchored: the trail was rewritten` };
    return { ok: true, rows: count, legacy, anchoredAt: anchor.seq, afterAnchor: count - countAtAnchor };
  }
}
