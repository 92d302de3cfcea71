import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The simulated operations feed's disruptions already applied to the orders on their flight
 * (schemas/migrations/0038_operations_feed.sql): one row per flight, written after every order on
 * it was told, so the feed tells each order once. Owned by the operations sweeps of @ndc/orders.
 */
export const operationsFeed = sqliteTable("operations_feed", {
  flightKey: text("flight_key").primaryKey(),
  /** retime | cancel */
  kind: text("kind").notNull(),
  minutes: integer("minutes"),
  announcedAt: integer("announced_at").notNull(),
  appliedAt: integer("applied_at").notNull(),
  orders: integer("orders").notNull(),
});
