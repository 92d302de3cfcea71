import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The audit of identity-document erasures (schemas/migrations/0043_identity_document_erasures.sql): one row per order an erasure took, append-only. */
export const identityDocumentErasures = sqliteTable(
  "identity_document_erasures",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    orderId: text("order_id").notNull(),
    path: text("path", { enum: ["retention", "account_deletion", "supervisor"] }).notNull(),
    actor: text("actor").notNull(),
    reason: text("reason"),
    documents: integer("documents").notNull(),
    erasedAt: integer("erased_at").notNull(),
  },
  (t) => [index("identity_document_erasures_order").on(t.orderId)],
);
