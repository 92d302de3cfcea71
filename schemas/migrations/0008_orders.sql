-- Orders (packages/orders). The order actor's journal (actor_journal, kind orders.order) is the
-- truth; these rows are an index written in the same transaction as each of its events, so
-- OrderList can filter and page without loading every actor, and the expiry sweep finds held
-- orders past their payment time limit.

CREATE TABLE IF NOT EXISTS orders (
  order_id           TEXT    PRIMARY KEY,
  owner_client_id    TEXT    NOT NULL,
  owner_agency_id    TEXT    NOT NULL,
  state              TEXT    NOT NULL CHECK (state IN ('held_unpaid', 'held_payment_declined', 'booked', 'cancelled', 'closed')),
  version            INTEGER NOT NULL CHECK (version >= 1),
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  -- Epoch ms; set while the order is held, NULL once paid or cancelled.
  payment_time_limit INTEGER,
  currency           TEXT    NOT NULL,
  total_minor        INTEGER NOT NULL CHECK (total_minor >= 0),
  pax_count          INTEGER NOT NULL CHECK (pax_count >= 1),
  -- First and last travel dates (YYYY-MM-DD) of the order's flights.
  travel_from        TEXT,
  travel_to          TEXT
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS orders_owner_created ON orders (owner_agency_id, created_at, order_id);
CREATE INDEX IF NOT EXISTS orders_payment_due ON orders (payment_time_limit)
  WHERE state IN ('held_unpaid', 'held_payment_declined');

-- Passenger surnames for OrderList's surname filter, never in clear: a keyed digest
-- (HMAC-SHA-256 under the field key) of the upper-cased surname, so the index neither shows
-- a name nor can be matched against a list of names without the key.
CREATE TABLE IF NOT EXISTS order_pax_index (
  order_id       TEXT NOT NULL,
  surname_digest TEXT NOT NULL,
  PRIMARY KEY (order_id, surname_digest)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS order_pax_index_digest ON order_pax_index (surname_digest);
