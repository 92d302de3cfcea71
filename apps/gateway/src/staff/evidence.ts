import { GatewayError } from "@ndc/errors";
import { evidenceFields, evidenceOf } from "@ndc/signatures";
import { recordAudit, statedReason } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";

/**
 * The signature evidence of an order (issue 12 item 3, docs/signatures.md): what the order page
 * shows to anyone who may read orders (the chained row's fields and digests, whether the signed
 * original is held or was erased), never the original itself. The original is the request as the
 * seller signed it, identity documents in clear: a supervisor downloads it, naming a reason, and
 * the download is audited (`signature.original`) before the bytes are handed back.
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

/** POST original: the right first (an agent's request is refused and audited), the reason, then the row of this order. */
export async function signedOriginal(deps: StaffDeps, caller: StaffCaller, orderId: string, seq: string, body: Record<string, unknown>): Promise<{ xml: string; filename: string }> {
  await requireRight(deps, caller, "signatures.original", { action: "signature.original", orderId, documentRef: `evidence:${seq.slice(0, 16)}` });
  const { reason, category } = statedReason(body, true);
  const found = (await evidenceOf(deps.store, deps.fieldKey, orderId)).find((e) => String(e.row.seq) === seq);
  if (!found) throw new GatewayError("request_invalid", { detail: "The order has no signature evidence of that number.", element: "seq" });
  if (!found.original || "erasedAt" in found.original) throw new GatewayError("identity_document_erased", { detail: "The signed original was erased with the order's identity documents." });
  // No audit, no original: the row commits before the bytes leave.
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "signature.original", outcome: "ok", orderId, documentRef: `evidence:${seq}`, reason, reasonCategory: category, detail: `${found.row.message} signed original, sha256 ${found.row.originalSha256}` });
  return { xml: found.original.original, filename: `${orderId}-${found.row.message}-${seq}.xml` };
}
