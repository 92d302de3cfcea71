import { createHash, createHmac, hkdfSync } from "node:crypto";
import type { FieldKey } from "@ndc/pii";
import type { AuditEntry } from "./audit";

/**
 * What keys the staff audit chain (issue 19 item 7): an HMAC-SHA-256 key held outside the
 * database, and the anchor file. The key is derived from the field key (HKDF-SHA-256 with its own
 * label), so it lives where that key lives (GATEWAY_FIELD_KEY or its file) and needs no secret of
 * its own; someone who can write the database but does not hold the field key cannot compute a
 * row's MAC, so cannot rewrite the chain.
 */
export interface AuditChain {
  key: Uint8Array;
  anchorFile: string;
}

export function auditChain(fieldKey: FieldKey, anchorFile: string): AuditChain {
  return { key: new Uint8Array(hkdfSync("sha256", fieldKey.key, new Uint8Array(0), "ndc-gateway staff audit chain v1", 32)), anchorFile };
}

export const GENESIS = "0".repeat(64);

const fieldsOf = (e: AuditEntry, prevHash: string) =>
  [prevHash, String(e.at), e.staffId, e.username, e.role, e.remote, e.action, e.outcome, e.orderId ?? "", e.documentRef ?? "", e.reasonCategory ?? "", e.reason ?? "", e.detail ?? ""].join("\u0000");

/** A row's MAC: its fields and the previous row's hash, under the chain's key. */
export function auditMac(chain: AuditChain, e: AuditEntry, prevHash: string): string {
  return createHmac("sha256", chain.key).update(fieldsOf(e, prevHash)).digest("hex");
}

/**
 * The plain SHA-256 of rows written before the chain was keyed (migration 0050 to issue 19): they
 * still verify, but only as the start of the trail, before the first keyed row, whose MAC covers
 * the last of them (its prevHash).
 */
export function legacyAuditHash(e: AuditEntry, prevHash: string): string {
  return createHash("sha256").update(fieldsOf(e, prevHash)).digest("hex");
}
