import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The processes that may own an operation (schemas/migrations/0065_instances.sql): each writes its
 * row at start, moves `heartbeatAt` every few seconds and removes the row when it stops in order.
 * Owned by @ndc/orders' liveness (src/liveness).
 */
export const instances = sqliteTable("instances", {
  instanceId: text("instance_id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  /** Real time, ms (never a seller's sandbox clock: liveness is about processes, not business). */
  startedAt: integer("started_at").notNull(),
  heartbeatAt: integer("heartbeat_at").notNull(),
});
