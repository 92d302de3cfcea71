import { heldDocuments } from "@ndc/pii";
import type { StoreDb } from "@ndc/store";
import { appendAudit, type AuditEntry } from "./audit";
import type { AuditChain } from "./audit-chain";

/** The documents of an order its signed original shows in clear: every one not erased (an erased order's original is erased too). */
export const documentsInOriginal = async (db: StoreDb, orderId: string) => (await heldDocuments(db, orderId)).filter((d) => d.erasedAt === undefined).map((d) => d.documentId);

/**
 * The audit of a signed original handed out in clear (issue 19 item 11, spec 2.4 rule 5):
 * `signature.original`, then `pii.reveal` for each document it shows, with the reason and its
 * category, never a number. Inside the caller's write, which commits before the bytes leave:
 * the console's download and `ndc-gateway order evidence --clear` (which spends its TOTP code in it).
 */
export async function auditClearOriginal(
  tx: StoreDb,
  chain: AuditChain,
  base: Omit<AuditEntry, "action" | "outcome" | "documentRef" | "detail">,
  evidence: { seq: number; message: string; originalSha256: string },
  documentRefs: readonly string[],
): Promise<void> {
  await appendAudit(tx, chain, { ...base, action: "signature.original", outcome: "ok", documentRef: `evidence:${evidence.seq}`, detail: `${evidence.message} signed original in clear, sha256 ${evidence.originalSha256}` });
  for (const documentRef of documentRefs) await appendAudit(tx, chain, { ...base, action: "pii.reveal", outcome: "ok", documentRef, detail: `in the signed original evidence:${evidence.seq}` });
}
