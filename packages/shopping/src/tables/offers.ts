import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Offers awaiting OfferPrice or OrderCreate (schemas/migrations/0004_offers.sql). */
export const offers = sqliteTable(
  "offers",
  {
    offerId: text("offer_id").primaryKey(),
    source: text("source").notNull(),
    ownerClientId: text("owner_client_id").notNull(),
    ownerAgencyId: text("owner_agency_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    payload: text("payload").notNull(),
  },
  (t) => [index("offers_expiry").on(t.expiresAt)],
);
