import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Each seller client's sandbox clock offset (schemas/migrations/0061_sandbox_clocks.sql). */
export const sandboxClocks = sqliteTable("sandbox_clocks", {
  clientId: text("client_id").primaryKey(),
  offsetMs: integer("offset_ms").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
