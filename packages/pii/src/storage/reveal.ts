import { eq } from "drizzle-orm";
import type { Store } from "@ndc/store";
import * as tables from "../tables";
import { openField } from "../crypto/field-cipher";
import type { FieldKey } from "../field-key";
import { sealedOf } from "./rows";

/** The document does not exist or has been erased. Carries the id only, never personal data. */
export class IdentityDocumentUnavailable extends Error {
  constructor(
    readonly documentId: string,
    readonly reason: "not_found" | "erased",
  ) {
    super(reason === "erased" ? "the identity document has been erased" : "no identity document with this id");
    this.name = "IdentityDocumentUnavailable";
  }
}

/**
 * The clear number of one document, for the staff console (spec 2.4 rule 5). This function
 * checks nothing about who asks: the caller checks the role (senior agent or supervisor),
 * takes the reason and writes the pii.reveal audit entry naming the document, never the value.
 * Throws FieldDecryptError if the ciphertext fails authentication.
 */
export async function revealNumber(store: Store, key: FieldKey, documentId: string): Promise<string> {
  const d = tables.identityDocuments;
  const [row] = await store.db
    .select({ orderId: d.orderId, paxId: d.paxId, numberCiphertext: d.numberCiphertext, numberNonce: d.numberNonce, keyVersion: d.keyVersion, erasedAt: d.erasedAt })
    .from(d)
    .where(eq(d.documentId, documentId));
  if (!row) throw new IdentityDocumentUnavailable(documentId, "not_found");
  const sealed = sealedOf(row);
  if (row.erasedAt !== null || !sealed) throw new IdentityDocumentUnavailable(documentId, "erased");
  return openField(sealed, key, { orderId: row.orderId, paxId: row.paxId, documentId });
}
