import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The 3-D Secure results of a card leg (schemas/migrations/0064_payment_card_authentications.sql),
 * keyed by the leg. `authenticationValue` is secret: written, never read into an answer or a log.
 */
export const paymentCardAuthentications = sqliteTable("payment_card_authentications", {
  legId: text("leg_id").primaryKey(),
  eci: text("eci").notNull(),
  authenticationValue: text("authentication_value"),
  protocolVersion: text("protocol_version"),
  dsTrxId: text("ds_trx_id"),
  trxStatus: text("trx_status"),
  createdAt: integer("created_at").notNull(),
});
