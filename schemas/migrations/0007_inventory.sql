-- Inventory (packages/inventory): seats and partner-product units held or sold by the gateway's
-- channels (NDC and the airline's web shop). The actors decide; these rows are written in the
-- same transaction as the actor's journal events, and the partial unique indexes below refuse a
-- second live row for one seat or one unit even if two writers got past the actors (DESIGN 4).
-- Rows are never deleted: a released or expired claim keeps its row with its final status.

CREATE TABLE IF NOT EXISTS seat_inventory (
  flight_key TEXT    NOT NULL,
  seat_id    TEXT    NOT NULL,
  hold_id    TEXT    NOT NULL,
  status     TEXT    NOT NULL CHECK (status IN ('held', 'sold', 'released', 'expired')),
  holder     TEXT    NOT NULL,
  -- ndc or web_shop: which sales channel took the seat.
  channel    TEXT    NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (flight_key, hold_id, seat_id)
) WITHOUT ROWID;

-- A seat is sold once across every channel: one live (held or sold) row per seat of a flight.
CREATE UNIQUE INDEX IF NOT EXISTS seat_inventory_live
  ON seat_inventory (flight_key, seat_id) WHERE status IN ('held', 'sold');
CREATE INDEX IF NOT EXISTS seat_inventory_expiry
  ON seat_inventory (expires_at) WHERE status = 'held';

-- One row per unit of a partner product held or sold. `unit` is the slot the unit takes out of
-- the stock released by the partner (0 .. stock_total - 1), so the CHECK plus the live-unit
-- index make overselling impossible in the store, not only in the actor.
CREATE TABLE IF NOT EXISTS partner_stock_units (
  product_code TEXT    NOT NULL,
  hold_id      TEXT    NOT NULL,
  order_id     TEXT    NOT NULL,
  unit         INTEGER NOT NULL,
  stock_total  INTEGER NOT NULL,
  status       TEXT    NOT NULL CHECK (status IN ('held', 'sold', 'released', 'expired')),
  channel      TEXT    NOT NULL,
  expires_at   INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  CHECK (unit >= 0 AND unit < stock_total),
  PRIMARY KEY (product_code, hold_id)
) WITHOUT ROWID;

CREATE UNIQUE INDEX IF NOT EXISTS partner_stock_units_live_unit
  ON partner_stock_units (product_code, unit) WHERE status IN ('held', 'sold');
-- A partner product is sold once per order (spec 4.4 rule 3).
CREATE UNIQUE INDEX IF NOT EXISTS partner_stock_units_live_order
  ON partner_stock_units (product_code, order_id) WHERE status IN ('held', 'sold');
