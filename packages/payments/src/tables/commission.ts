import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Commission agreements, one per agency (schemas/migrations/0010_commission_agreements.sql). */
export const commissionAgreements = sqliteTable("commission_agreements", {
  agencyId: text("agency_id").primaryKey(),
  kind: text("kind").notNull(),
  /** JSON; its shape depends on kind (see the migration). */
  parameters: text("parameters").notNull(),
  /** Tiered and flat only: the currency of thresholds or amount. */
  currency: text("currency"),
  createdAt: integer("created_at").notNull(),
});
