/** What a document number's ciphertext is bound to (DESIGN 5). */
export interface FieldBinding {
  orderId: string;
  paxId: string;
  documentId: string;
}

const LABEL = "ndc-gateway/identity-doc-number/v1";

/**
 * Additional authenticated data for AES-GCM. Each part is length-prefixed so that no two
 * different bindings encode alike (order "a|b" + pax "c" must not equal order "a" + pax "b|c"),
 * and the key version is included so that a row whose version column was edited fails
 * authentication instead of being tried under another key. The label keeps a ciphertext made
 * for another purpose with the same key from authenticating here.
 */
export function additionalData(b: FieldBinding, keyVersion: number): Uint8Array {
  const parts = [LABEL, String(keyVersion), b.orderId, b.paxId, b.documentId].map((p) => Buffer.from(p, "utf8"));
  const out: Buffer[] = [];
  for (const p of parts) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(p.length);
    out.push(len, p);
  }
  return Buffer.concat(out);
}
