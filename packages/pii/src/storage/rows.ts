import type * as tables from "../tables";
import type { SealedField } from "../crypto/field-cipher";

export type IdentityDocumentRow = typeof tables.identityDocuments.$inferSelect;

// Binary values are stored as base64 text: both store drivers hand TEXT back unchanged, while
// BLOBs come back as Buffer, Uint8Array or ArrayBuffer depending on the driver.
export const toB64 = (b: Uint8Array) => Buffer.from(b).toString("base64");
export const fromB64 = (s: string) => new Uint8Array(Buffer.from(s, "base64"));

export function sealedOf(row: Pick<IdentityDocumentRow, "numberCiphertext" | "numberNonce" | "keyVersion">): SealedField | undefined {
  if (row.numberCiphertext === null || row.numberNonce === null || row.keyVersion === null) return undefined;
  return { ciphertext: fromB64(row.numberCiphertext), nonce: fromB64(row.numberNonce), keyVersion: row.keyVersion };
}
