import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Seat and partner-stock claims (schemas/migrations/0007_inventory.sql). */

const LIVE = sql`status IN ('held', 'sold')`;

export const seatInventory = sqliteTable(
  "seat_inventory",
  {
    flightKey: text("flight_key").notNull(),
    seatId: text("seat_id").notNull(),
    holdId: text("hold_id").notNull(),
    /** held | sold | released | expired */
    status: text("status").notNull(),
    holder: text("holder").notNull(),
    channel: text("channel").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.flightKey, t.holdId, t.seatId] }),
    uniqueIndex("seat_inventory_live").on(t.flightKey, t.seatId).where(LIVE),
    index("seat_inventory_expiry").on(t.expiresAt).where(sql`status = 'held'`),
  ],
);

export const partnerStockUnits = sqliteTable(
  "partner_stock_units",
  {
    productCode: text("product_code").notNull(),
    holdId: text("hold_id").notNull(),
    orderId: text("order_id").notNull(),
    unit: integer("unit").notNull(),
    stockTotal: integer("stock_total").notNull(),
    /** held | sold | released | expired */
    status: text("status").notNull(),
    channel: text("channel").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productCode, t.holdId] }),
    uniqueIndex("partner_stock_units_live_unit").on(t.productCode, t.unit).where(LIVE),
    uniqueIndex("partner_stock_units_live_order").on(t.productCode, t.orderId).where(LIVE),
  ],
);
