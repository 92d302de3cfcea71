import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { preparedOnce, tables, type StoreDb } from "@ndc/store";
import { maskedDocument, type MaskedIdentityDoc, type OmittedIdentityDoc } from "../identity-doc/mask";

export interface IdentityDocumentView {
  documentId: string;
  paxId: string;
  /** `{ omitted: true }`: add the warning identity_document_not_shown (spec 2.4 rule 4). */
  view: MaskedIdentityDoc | OmittedIdentityDoc;
}

const d = tables.identityDocuments;

/**
 * The masked documents of one order for IATA_OrderViewRS, in insertion order. Only the columns
 * masking needs are selected: the ciphertext never leaves the database on this path. Erased
 * documents are left out: nothing is held any more, so there is nothing to warn about.
 * Checking that the caller may see the order is the caller's job (order ownership).
 */
export async function readMaskedDocuments(db: StoreDb, orderId: string): Promise<IdentityDocumentView[]> {
  const rows = await masked(db).all({ orderId });
  return rows.map((r) => ({
    documentId: r.documentId,
    paxId: r.paxId,
    // The CHECK constraint guarantees type and surname on a live row.
    view: maskedDocument({ ...r, type: r.type!, holderSurname: r.holderSurname! }),
  }));
}

/** Prepared once per connection: every OrderViewRS reads it (OrderRetrieve's hot path). */
const masked = preparedOnce((db) =>
  db
    .select({
      documentId: d.documentId,
      paxId: d.paxId,
      type: d.typeCode,
      citizenship: d.citizenship,
      issuingCountry: d.issuingCountry,
      expiryDate: d.expiryDate,
      holderSurname: d.holderSurname,
    })
    .from(d)
    .where(and(eq(d.orderId, sql.placeholder("orderId")), isNull(d.erasedAt)))
    .orderBy(asc(d.createdAt), asc(d.documentId))
    .prepare(),
);
