import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The orders index and the surname digests (schemas/migrations/0008_orders.sql). */

export const orders = sqliteTable(
  "orders",
  {
    orderId: text("order_id").primaryKey(),
    ownerClientId: text("owner_client_id").notNull(),
    ownerAgencyId: text("owner_agency_id").notNull(),
    /** held_unpaid | held_payment_declined | booked | cancelled | closed */
    state: text("state").notNull(),
    version: integer("version").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    paymentTimeLimit: integer("payment_time_limit"),
    currency: text("currency").notNull(),
    totalMinor: integer("total_minor").notNull(),
    paxCount: integer("pax_count").notNull(),
    travelFrom: text("travel_from"),
    travelTo: text("travel_to"),
    /** JSON array of the order's flight keys now (migration 0037): the operations feed finds the orders on a flight by it. */
    flightKeys: text("flight_keys"),
    /** Date (YYYY-MM-DD) of the first flight not yet recorded flown; null when none: the delivery sweep's candidates. */
    unflownFrom: text("unflown_from"),
    /** Epoch ms: when travel ends, the airline's retimes applied: the retention sweep's clock (spec 8). */
    travelEndAt: integer("travel_end_at"),
    /** Partner products not reported fulfilled yet: the partner read-back's candidates. */
    partnerAwaiting: integer("partner_awaiting").notNull().default(0),
  },
  (t) => [
    index("orders_owner_created").on(t.ownerAgencyId, t.createdAt, t.orderId),
    // The dashboard's orders per hour (migration 0058).
    index("orders_created").on(t.createdAt),
    index("orders_payment_due").on(t.paymentTimeLimit).where(sql`state IN ('held_unpaid', 'held_payment_declined')`),
    index("orders_unflown").on(t.unflownFrom).where(sql`state = 'booked' AND unflown_from IS NOT NULL`),
    index("orders_travel_end").on(t.travelEndAt),
    index("orders_partner_awaiting").on(t.travelFrom).where(sql`state = 'booked' AND partner_awaiting > 0`),
  ],
);

export const orderPaxIndex = sqliteTable(
  "order_pax_index",
  {
    orderId: text("order_id").notNull(),
    surnameDigest: text("surname_digest").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.surnameDigest] }), index("order_pax_index_digest").on(t.surnameDigest)],
);

/**
 * An order's OrderViewRS as written at the end of the order's last write (schemas/migrations/
 * 0021_order_views.sql): deleted by triggers whenever the order, its legs or its documents change,
 * and served only from `validFrom` until before `validUntil` (what time changes: fee band, flown flights).
 */
export const orderViews = sqliteTable("order_views", {
  orderId: text("order_id").primaryKey(),
  ownerAgencyId: text("owner_agency_id").notNull(),
  /** The Response element, written. */
  response: text("response").notNull(),
  /** JSON: the Response element's name, the root's trailing elements (name and text), a decline outcome. */
  meta: text("meta").notNull(),
  /** Epoch ms: when the view was built (a clock set back before it finds no view). */
  validFrom: integer("valid_from").notNull(),
  /** Epoch ms: the next band edge or departure, from which the view may differ; null when none. */
  validUntil: integer("valid_until"),
  /** What the view was encoded with (build and configuration, migration 0067): a row under another key is not served. */
  viewKey: text("view_key").notNull().default(""),
});
