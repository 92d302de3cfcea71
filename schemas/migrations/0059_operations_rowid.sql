-- The operations table was WITHOUT ROWID, which SQLite advises only for small rows: a stored answer
-- (response_body, about 19 KB of base64 for a paid two-passenger OrderCreate) made every row span
-- overflow pages inside the primary-key B-tree itself, so even a lookup that finds nothing cost
-- about 47 µs against 1.4 µs for the orders table's key (measured on 1,111 booked orders;
-- docs/decisions/0006-booking-write-path.md, last part), and a paid booking makes six such
-- statements. Rebuilt as an ordinary rowid table: the key's index holds only the id, and the large
-- row is read only when it is found. Same columns, same order, same indexes; rows copied as they are.
CREATE TABLE operations_0059 (
  -- Derived from what identifies the work (ids.createSaga / ids.retrySaga).
  operation_id    TEXT    PRIMARY KEY,
  kind            TEXT    NOT NULL,
  -- The request that started it, when it came with one; unique per kind.
  client_id       TEXT,
  correlation_id  TEXT,
  trx_id          TEXT,
  -- SHA-256 of the canonical request: the same ids with another body are refused.
  fingerprint     TEXT    NOT NULL,
  -- NULL until the work opened (a request refused before anything was taken has none).
  order_id        TEXT,
  owner_client_id TEXT,
  owner_agency_id TEXT,
  -- The last recovery point reached (for OrderCreate: open, committed, done); `none` for a
  -- request answered before its work opened.
  phase           TEXT    NOT NULL,
  status          TEXT    NOT NULL CHECK (status IN ('running', 'done', 'compensated', 'answered')),
  -- JSON; the kind owns its shape (hold ids, leg count, the payment time limit). No personal data.
  plan            TEXT,
  error_code      TEXT,
  -- Instance id of the process whose request holds the row in flight; NULL once answered.
  lock_owner      TEXT,
  locked_at       INTEGER,
  -- The first answer, replayed byte for byte (base64).
  response_status INTEGER,
  response_body   TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  completed_at    INTEGER
);
INSERT INTO operations_0059 (operation_id, kind, client_id, correlation_id, trx_id, fingerprint, order_id, owner_client_id, owner_agency_id, phase, status, plan, error_code, lock_owner, locked_at, response_status, response_body, created_at, updated_at, completed_at)
  SELECT operation_id, kind, client_id, correlation_id, trx_id, fingerprint, order_id, owner_client_id, owner_agency_id, phase, status, plan, error_code, lock_owner, locked_at, response_status, response_body, created_at, updated_at, completed_at FROM operations;
DROP TABLE operations;
ALTER TABLE operations_0059 RENAME TO operations;
CREATE UNIQUE INDEX operations_request ON operations (client_id, correlation_id, trx_id, kind) WHERE client_id IS NOT NULL;
CREATE INDEX operations_open ON operations (updated_at) WHERE status = 'running';
CREATE INDEX operations_order ON operations (order_id);
