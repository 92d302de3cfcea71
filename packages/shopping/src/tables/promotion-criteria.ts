import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The operator's switch of the promotion criteria (schemas/migrations/0060_promotion_criteria.sql): at most one row. */
export const promotionCriteria = sqliteTable("promotion_criteria", {
  id: integer("id").primaryKey(),
  switchedOn: integer("switched_on").notNull(),
  changedAt: integer("changed_at").notNull(),
  changedBy: text("changed_by").notNull(),
});
