import { and, eq } from "drizzle-orm";
import type { StoreDb } from "@ndc/store";
import { openField, sealField } from "../crypto/field-cipher";
import type { FieldKey } from "../field-key";
import { signedOriginals as S } from "../tables";

// The AAD binding of a signed original: its order and evidence row (pax and document do not apply).
const binding = (orderId: string, seq: number) => ({ orderId, paxId: "signed-original", documentId: String(seq) });

/** Seals and stores a signed original inside the caller's transaction (the evidence row's). */
export async function insertSignedOriginal(tx: StoreDb, key: FieldKey, orderId: string, evidenceSeq: number, original: string): Promise<void> {
  const sealed = sealField(original, key, binding(orderId, evidenceSeq));
  await tx.insert(S).values({ evidenceSeq, orderId, ciphertext: Buffer.from(sealed.ciphertext), nonce: Buffer.from(sealed.nonce), keyVersion: sealed.keyVersion, erasedAt: null });
}

/** The signed original, or when it was erased, or undefined when none was kept. */
export async function readSignedOriginal(db: StoreDb, key: FieldKey, orderId: string, evidenceSeq: number): Promise<{ original: string } | { erasedAt: number } | undefined> {
  const [r] = await db.select().from(S).where(and(eq(S.orderId, orderId), eq(S.evidenceSeq, evidenceSeq))).limit(1);
  if (!r) return undefined;
  if (r.erasedAt !== null || !r.ciphertext || !r.nonce || r.keyVersion === null) return { erasedAt: r.erasedAt ?? 0 };
  return { original: openField({ ciphertext: r.ciphertext, nonce: r.nonce, keyVersion: r.keyVersion }, key, binding(orderId, evidenceSeq)) };
}
