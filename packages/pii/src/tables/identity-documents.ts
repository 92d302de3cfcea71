import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Passenger identity documents (schemas/migrations/0005_identity_documents.sql). Personal
 * columns are nullable because erasure nulls them; the CHECKs in the migration keep live rows
 * complete. Only @ndc/pii reads or writes this table: it owns the encryption and the masking.
 */
export const identityDocuments = sqliteTable(
  "identity_documents",
  {
    documentId: text("document_id").primaryKey(),
    orderId: text("order_id").notNull(),
    paxId: text("pax_id").notNull(),
    typeCode: text("type_code"),
    citizenship: text("citizenship"),
    issuingCountry: text("issuing_country"),
    residenceCountry: text("residence_country"),
    issueDate: text("issue_date"),
    expiryDate: text("expiry_date"),
    holderSurname: text("holder_surname"),
    givenNames: text("given_names"),
    middleNames: text("middle_names"),
    suffixName: text("suffix_name"),
    titleName: text("title_name"),
    birthDate: text("birth_date"),
    birthplace: text("birthplace"),
    gender: text("gender"),
    numberCiphertext: text("number_ciphertext"),
    numberNonce: text("number_nonce"),
    keyVersion: integer("key_version"),
    createdAt: integer("created_at").notNull(),
    erasedAt: integer("erased_at"),
  },
  (t) => [index("identity_documents_order").on(t.orderId)],
);
