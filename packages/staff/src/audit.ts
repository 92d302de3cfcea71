import { createHash } from "node:crypto";
import { and, asc, desc, eq, gt, type SQL } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import { staffAudit as T } from "./tables/staff";

/**
 * The staff audit trail (issue 12 item 2; migration 0050): every staff action with who, when,
 * from where, which order or document, what and why. Append-only (SQL triggers refuse UPDATE
 * and DELETE) and hash-chained like the fare-rule overrides (servicing_overrides): each row's
 * hash covers its fields and the previous row's hash, so an edited or removed row breaks the
 * chain from there on (`ndc-gateway staff audit verify`). Never a document number, a password,
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

export const GENESIS = "0".repeat(64);

export function auditHash(e: AuditEntry, prevHash: string): string {
  const fields = [prevHash, String(e.at), e.staffId, e.username, e.role, e.remote, e.action, e.outcome, e.orderId ?? "", e.documentRef ?? "", e.reasonCategory ?? "", e.reason ?? "", e.detail ?? ""];
  return createHash("sha256").update(fields.join("\u0000")).digest("hex");
}

/** Appends one row inside the caller's write transaction (writes are serialised, so the tail is stable). */
export async function appendAudit(tx: StoreDb, e: AuditEntry): Promise<void> {
  const [last] = await tx.select({ hash: T.hash }).from(T).orderBy(desc(T.seq)).limit(1);
  const prevHash = last?.hash ?? GENESIS;
  await tx.insert(T).values({ ...e, prevHash, hash: auditHash(e, prevHash) });
}

/** One audit row in a write of its own (an action that writes nothing else: a view, a refusal). */
export function recordAudit(store: Store, e: AuditEntry): Promise<void> {
  return store.write((tx) => appendAudit(tx, e));
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

export type AuditCheck = { ok: true; rows: number } | { ok: false; rows: number; brokenAt: number };

/** Walks the whole chain in pages; the first row whose link or hash does not hold. */
export async function verifyAudit(db: StoreDb): Promise<AuditCheck> {
  let prev = GENESIS;
  let count = 0;
  let after = 0;
  for (;;) {
    const rows = await queryAudit(db, { after, limit: 1000 });
    for (const r of rows) {
      count++;
      if (r.prevHash !== prev || r.hash !== auditHash(r, prev)) return { ok: false, rows: count, brokenAt: r.seq };
      prev = r.hash;
      after = r.seq;
    }
    if (rows.length < 1000) return { ok: true, rows: count };
  }
}
