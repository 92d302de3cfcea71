import { createHash } from "node:crypto";
import type { FieldKey } from "@ndc/pii";
import type { Store } from "@ndc/store";
import { and, eq } from "drizzle-orm";
import { brokenEvidenceAt, evidenceFields, evidenceOf, type EvidenceFields } from "./evidence";
import { agencySigningKeys as K } from "./tables";
import { verifySignedMessage } from "./verify";

/** One verified request of an order, for a dispute (`ndc-gateway order evidence`). */
export interface EvidenceEntry extends EvidenceFields {
  /** The signed original as received, or when it was erased with the order's documents. */
  original: { xml: string; sha256Matches: boolean } | { erasedAt: string } | { missing: true };
  /** The original checked again now, with the registered key of that fingerprint, at the verification time. */
  reverified?: { ok: boolean; reason?: string };
}

export interface EvidenceReport {
  orderId: string;
  chain: { holds: boolean; brokenAtSeq?: number };
  entries: EvidenceEntry[];
}

/**
 * Everything the airline holds on an order's signed requests: the chained rows, whether the
 * whole chain holds, each signed original (unsealed) with its digest compared to the chained
 * one, and a fresh verification of it against the key registered under its fingerprint.
 */
export async function evidenceReport(store: Store, key: FieldKey, orderId: string): Promise<EvidenceReport> {
  const broken = await brokenEvidenceAt(store);
  const entries: EvidenceEntry[] = [];
  for (const { row, original } of await evidenceOf(store, key, orderId)) {
    const entry: EvidenceEntry = { ...evidenceFields(row), original: { missing: true } };
    if (original && "original" in original) {
      entry.original = { xml: original.original, sha256Matches: createHash("sha256").update(original.original, "utf8").digest("hex") === row.originalSha256 };
      const [k] = await store.db.select().from(K).where(and(eq(K.agencyId, row.agencyId), eq(K.fingerprint, row.fingerprint))).limit(1);
      const v = k
        ? verifySignedMessage(original.original, [{ fingerprint: k.fingerprint, algorithm: k.algorithm as never, pem: k.pem, ...(k.notBefore !== null ? { notBefore: k.notBefore } : {}), ...(k.notAfter !== null ? { notAfter: k.notAfter } : {}), ...(k.revokedAt !== null ? { revokedAt: k.revokedAt } : {}) }], row.verifiedAt)
        : undefined;
      entry.reverified = v ? (v.ok ? { ok: true } : { ok: false, reason: v.reason }) : { ok: false, reason: "The key is no longer registered." };
    } else if (original) {
      entry.original = { erasedAt: new Date(original.erasedAt).toISOString() };
    }
    entries.push(entry);
  }
  return { orderId, chain: broken === undefined ? { holds: true } : { holds: false, brokenAtSeq: broken }, entries };
}
