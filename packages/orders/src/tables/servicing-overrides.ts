import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** The airline's fare-rule overrides, append-only and hash-chained (schemas/migrations/0030_servicing_overrides.sql). */
export const servicingOverrides = sqliteTable(
  "servicing_overrides",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    staffId: text("staff_id").notNull(),
    channel: text("channel").notNull(),
    orderId: text("order_id").notNull(),
    operationId: text("operation_id").notNull(),
    ruleCode: text("rule_code").notNull(),
    ruleText: text("rule_text").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull().unique(),
  },
  (t) => [uniqueIndex("servicing_overrides_operation").on(t.operationId)],
);
