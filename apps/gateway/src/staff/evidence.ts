import { GatewayError } from "@ndc/errors";
import { evidenceFields, evidenceOf, maskedOriginal } from "@ndc/signatures";
import { auditClearOriginal, documentsInOriginal, recordAudit, statedReason } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";

/**
 * The signature evidence of an order (issue 12 item 3, docs/signatures.md): what the order page
 * shows to anyone who may read orders (the chained row's fields and digests, whether the signed
 * original is held or was erased), never the original itself. The original is the request as the
 * seller signed it, identity documents in clear: a supervisor downloads it, naming a reason, and
 * the download is audited (`signature.original`) before the bytes are handed back; by default
 * with the document numbers masked (issue 19 item 11), in clear only when asked, which is a
 * reveal of each document of the order (`pii.reveal`, spec 2.4 rule 5).
 */
export async function signatureEvidence(deps: StaffDeps, orderId: string) {
  const rows = await evidenceOf(deps.store, deps.fieldKey, orderId);
  return rows.map(({ row, original }) => {
    // The page shows the row's own hash; the previous one is the chain's business (ndc-gateway order evidence).
    const { prevHash: _prev, ...fields } = evidenceFields(row);
    return {
      ...fields,
      original: !original ? ("missing" as const) : "erasedAt" in original ? { erasedAt: new Date(original.erasedAt).toISOString() } : ("held" as const),
    };
  });
}
export type SignatureEvidenceView = Awaited<ReturnType<typeof signatureEvidence>>;

/**
 * POST original: the right first (an agent's request is refused and audited), the reason, then
 * the row of this order. `clear: true` asks for the signed original as received; otherwise the
 * masked copy (its signature no longer verifies, and its file name and first comment say so).
 */
export async function signedOriginal(deps: StaffDeps, caller: StaffCaller, orderId: string, seq: string, body: Record<string, unknown>): Promise<{ xml: string; filename: string; masked: boolean }> {
  await requireRight(deps, caller, "signatures.original", { action: "signature.original", orderId, documentRef: `evidence:${seq.slice(0, 16)}` });
  const { reason, category } = statedReason(body, true);
  const clear = body.clear === true || body.clear === "on" || body.clear === "true";
  const found = (await evidenceOf(deps.store, deps.fieldKey, orderId)).find((e) => String(e.row.seq) === seq);
  if (!found) throw new GatewayError("request_invalid", { detail: "The order has no signature evidence of that number.", element: "seq" });
  if (!found.original || "erasedAt" in found.original) throw new GatewayError("identity_document_erased", { detail: "The signed original was erased with the order's identity documents." });
  const base = { ...who(caller), at: deps.clock.now(), orderId, reason, reasonCategory: category };
  const { row } = found;
  // No audit, no original: the rows commit before the bytes leave.
  if (clear) {
    const refs = await documentsInOriginal(deps.store.db, orderId);
    await deps.store.write((tx) => auditClearOriginal(tx, deps.auditChain, base, row, refs));
    return { xml: found.original.original, filename: `${orderId}-${row.message}-${seq}.xml`, masked: false };
  }
  const masked = maskedOriginal(found.original.original, row.originalSha256);
  await recordAudit(deps.store, deps.auditChain, { ...base, action: "signature.original", outcome: "ok", documentRef: `evidence:${seq}`, detail: `${row.message} signed original, ${masked.masked} document number(s) masked, sha256 ${row.originalSha256}` });
  return { xml: masked.xml, filename: `${orderId}-${row.message}-${seq}-masked.xml`, masked: true };
}
