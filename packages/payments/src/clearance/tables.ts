import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Clearances of settlement-plan payments (schemas/migrations/0040_payment_clearances.sql). Only @ndc/payments writes them. */
export const paymentClearances = sqliteTable(
  "payment_clearances",
  {
    clearanceId: text("clearance_id").primaryKey(),
    legId: text("leg_id").notNull(),
    orderId: text("order_id").notNull(),
    agencyId: text("agency_id").notNull(),
    status: text("status", { enum: ["requested", "cleared", "cancelled"] }).notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    settlementMethod: text("settlement_method").notNull(),
    committedAt: integer("committed_at").notNull(),
    remittanceDate: text("remittance_date").notNull(),
    settlementDate: text("settlement_date").notNull(),
    requestedAt: integer("requested_at").notNull(),
    clearedBy: text("cleared_by", { enum: ["manager", "request", "staff"] }),
    clearedAt: integer("cleared_at"),
    cancelledAt: integer("cancelled_at"),
    // Migration 0063: a sale's clearance, or a refund's (the money back to the agency), and the sale clearance a refund's reverses.
    direction: text("direction", { enum: ["sale", "refund"] }).notNull().default("sale"),
    reverses: text("reverses"),
  },
  (t) => [index("payment_clearances_order").on(t.orderId), index("payment_clearances_due").on(t.status, t.requestedAt)],
);
