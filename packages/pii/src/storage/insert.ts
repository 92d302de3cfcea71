import { sql } from "drizzle-orm";
import { preparedOnce, type StoreDb } from "@ndc/store";
import * as tables from "../tables";
import { sealField } from "../crypto/field-cipher";
import type { FieldKey } from "../field-key";
import type { ValidIdentityDoc } from "../identity-doc/input";
import { toB64 } from "./rows";

export interface NewIdentityDocument {
  documentId: string;
  paxId: string;
  doc: ValidIdentityDoc;
}

/**
 * Stores an order's documents inside the caller's write transaction (OrderCreate's), so the
 * documents commit or roll back with the order. The number is encrypted before it reaches the
 * driver: it never exists in clear in SQL, the database file or its WAL.
 */
export async function insertIdentityDocuments(
  tx: StoreDb,
  key: FieldKey,
  orderId: string,
  docs: readonly NewIdentityDocument[],
  createdAt: number,
): Promise<void> {
  if (docs.length === 0) return;
  const rows = docs.map(({ documentId, paxId, doc }) => {
    const sealed = sealField(doc.number, key, { orderId, paxId, documentId });
    return {
      documentId,
      orderId,
      paxId,
      typeCode: doc.type,
      citizenship: doc.citizenship ?? null,
      issuingCountry: doc.issuingCountry ?? null,
      residenceCountry: doc.residenceCountry ?? null,
      issueDate: doc.issueDate ?? null,
      expiryDate: doc.expiryDate ?? null,
      holderSurname: doc.holderSurname,
      givenNames: JSON.stringify(doc.givenNames),
      middleNames: JSON.stringify(doc.middleNames),
      suffixName: doc.suffix ?? null,
      titleName: doc.title ?? null,
      birthDate: doc.birthDate ?? null,
      birthplace: doc.birthplace ?? null,
      gender: doc.gender ?? null,
      numberCiphertext: toB64(sealed.ciphertext),
      numberNonce: toB64(sealed.nonce),
      keyVersion: sealed.keyVersion,
      createdAt,
    };
  });
  const insert = insertDocument(tx);
  for (const row of rows) await insert.run(row);
}

const D = tables.identityDocuments;
const COLUMNS = [
  "documentId", "orderId", "paxId", "typeCode", "citizenship", "issuingCountry", "residenceCountry", "issueDate", "expiryDate", "holderSurname",
  "givenNames", "middleNames", "suffixName", "titleName", "birthDate", "birthplace", "gender", "numberCiphertext", "numberNonce", "keyVersion", "createdAt",
] as const;

/** Prepared once per connection, one row a run: every booking with documents writes it (issue 8). */
const insertDocument = preparedOnce((db) =>
  db
    .insert(D)
    .values(Object.fromEntries(COLUMNS.map((c) => [c, sql.placeholder(c)])) as unknown as typeof D.$inferInsert)
    .prepare(),
);
