import { createHash } from "node:crypto";
import { asc, desc, eq } from "drizzle-orm";
import { insertSignedOriginal, readSignedOriginal, type FieldKey } from "@ndc/pii";
import type { SignatureEvidenceInput } from "@ndc/messages";
import type { Store, StoreDb } from "@ndc/store";
import { signatureEvidence as E } from "./tables";

/**
 * What is kept of one verified request (issue 11 item 3): what the signature step verified (the
 * handlers carry it as @ndc/messages' SignatureEvidenceInput) and the order it created or changed;
 * `original` is sealed, never chained in clear.
 */
export type EvidenceInput = SignatureEvidenceInput & { orderId: string };

export type EvidenceRow = typeof E.$inferSelect;

export const GENESIS = "0".repeat(64);

type Chained = Omit<EvidenceRow, "seq" | "prevHash" | "hash">;

/** The row's hash covers its position's predecessor and every field (the ledger's rule). */
export function evidenceHash(prevHash: string, r: Chained): string {
  const fields = [prevHash, r.orderId, r.message, r.form, r.agencyId, r.clientId, r.fingerprint, r.signatureMethod, r.canonicalization, r.referenceUri, r.originalSha256, String(r.verifiedAt)];
  return createHash("sha256").update(fields.join("\u0000")).digest("hex");
}

/**
 * Appends the evidence row and the sealed original inside a write the caller owns: the commit
 * write of the order a signed OrderCreateRQ creates or a signed OrderChangeRQ changes (their
 * `alsoInCommit`), so a verified order or change never exists without it. Append-only (the
 * migration's triggers refuse UPDATE and DELETE), hash-chained, the original sealed with the
 * field key and erased with the order's identity documents (eraseIdentityDocuments).
 */
export async function appendEvidence(tx: StoreDb, key: FieldKey, e: EvidenceInput): Promise<EvidenceRow> {
  const { original, ...fields } = e;
  const chained: Chained = { ...fields, originalSha256: createHash("sha256").update(original, "utf8").digest("hex") };
  const [last] = await tx.select({ hash: E.hash }).from(E).orderBy(desc(E.seq)).limit(1);
  const prevHash = last?.hash ?? GENESIS;
  const [row] = await tx.insert(E).values({ ...chained, prevHash, hash: evidenceHash(prevHash, chained) }).returning();
  await insertSignedOriginal(tx, key, e.orderId, row!.seq, original);
  return row!;
}

/** The first row whose link or hash does not hold, or undefined when the chain holds. */
export async function brokenEvidenceAt(store: Store): Promise<number | undefined> {
  let prev = GENESIS;
  for (const r of await store.db.select().from(E).orderBy(asc(E.seq))) {
    if (r.prevHash !== prev || r.hash !== evidenceHash(prev, r)) return r.seq;
    prev = r.hash;
  }
  return undefined;
}

/** What a chained evidence row says of a signed request, as the dispute report and the staff console show it. */
export function evidenceFields(row: EvidenceRow) {
  return {
    seq: row.seq,
    message: row.message,
    form: row.form,
    agencyId: row.agencyId,
    clientId: row.clientId,
    fingerprint: row.fingerprint,
    signatureMethod: row.signatureMethod,
    canonicalization: row.canonicalization,
    referenceUri: row.referenceUri,
    verifiedAt: new Date(row.verifiedAt).toISOString(),
    originalSha256: row.originalSha256,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

export type EvidenceFields = ReturnType<typeof evidenceFields>;

export interface OrderEvidence {
  row: EvidenceRow;
  original: { original: string } | { erasedAt: number } | undefined;
}

/** An order's evidence rows with their signed originals (or when those were erased). */
export async function evidenceOf(store: Store, key: FieldKey, orderId: string): Promise<OrderEvidence[]> {
  const rows = await store.db.select().from(E).where(eq(E.orderId, orderId)).orderBy(asc(E.seq));
  const out: OrderEvidence[] = [];
  for (const row of rows) out.push({ row, original: await readSignedOriginal(store.db, key, orderId, row.seq) });
  return out;
}
