import { and, eq, isNull, sql } from "drizzle-orm";
import { preparedOnce, type StoreDb } from "@ndc/store";
import * as tables from "../tables";
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
  // Insertion order, sorted here rather than by ORDER BY (a few rows; see masked below).
  const rows = (await masked(db).all({ orderId })).sort((a, b) => a.createdAt - b.createdAt || (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0));
  return rows.map((r) => ({
    documentId: r.documentId,
    paxId: r.paxId,
    // The CHECK constraint guarantees type and surname on a live row.
    view: maskedDocument({ ...r, type: r.type!, holderSurname: r.holderSurname! }),
  }));
}

/**
 * Prepared once per connection: every OrderViewRS reads it (OrderRetrieve's hot path). No ORDER
 * BY: it cost SQLite 15 µs a call here, more than the read (docs/decisions/0009-order-read-path.md).
 */
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
      createdAt: d.createdAt,
    })
    .from(d)
    .where(and(eq(d.orderId, sql.placeholder("orderId")), isNull(d.erasedAt)))
    .prepare(),
);
