import { blob, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Signed originals of verified requests (schemas/migrations/0047_signature_evidence.sql): they
 * hold identity documents, so they are sealed with the field key and erased with the order's
 * documents. Only @ndc/pii reads or writes them; @ndc/signatures chains their digest.
 */
export const signedOriginals = sqliteTable(
  "signed_originals",
  {
    evidenceSeq: integer("evidence_seq").primaryKey(),
    orderId: text("order_id").notNull(),
    ciphertext: blob("ciphertext", { mode: "buffer" }),
    nonce: blob("nonce", { mode: "buffer" }),
    keyVersion: integer("key_version"),
    erasedAt: integer("erased_at"),
  },
  (t) => [index("signed_originals_order").on(t.orderId)],
);
