import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Failed authentications per source, one token bucket each (schemas/migrations/0066_failure_budgets_and_signing_key_version.sql). */
export const failureBudgets = sqliteTable(
  "failure_budgets",
  {
    source: text("source").primaryKey(),
    tokens: real("tokens").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("failure_budgets_updated_at").on(t.updatedAt)],
);
