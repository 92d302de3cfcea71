-- Sagas (multi-actor work with recovery points) and request idempotency (packages/orders).

-- One row per saga (OrderCreate, a payment retry). `step` is the last recovery point reached;
-- `plan` is JSON of what the saga took (hold ids, leg ids, the payment time limit), never
-- personal data: identity documents go to identity_documents with the order, not here.
-- The reconciler compensates a saga stopped before its commit step and finishes one after it.
CREATE TABLE IF NOT EXISTS sagas (
  saga_id         TEXT    PRIMARY KEY,
  kind            TEXT    NOT NULL CHECK (kind IN ('order_create', 'payment_retry')),
  order_id        TEXT    NOT NULL,
  owner_client_id TEXT    NOT NULL,
  owner_agency_id TEXT    NOT NULL,
  step            TEXT    NOT NULL,
  status          TEXT    NOT NULL CHECK (status IN ('running', 'done', 'compensated')),
  plan            TEXT    NOT NULL,
  -- Wire code of the refusal that ended a compensated saga.
  error_code      TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS sagas_open ON sagas (updated_at) WHERE status = 'running';
CREATE INDEX IF NOT EXISTS sagas_order ON sagas (order_id);

-- Stripe-style idempotency of requests such as OrderCreateRQ, keyed on (seller client,
-- CorrelationID, TrxID): the request's fingerprint (SHA-256 of its canonical body) and, once
-- answered, the exact response bytes (base64) and status. The primary key makes one first
-- request win across processes; `locked_at` marks one in flight.
CREATE TABLE IF NOT EXISTS request_idempotency (
  client_id       TEXT    NOT NULL,
  correlation_id  TEXT    NOT NULL,
  trx_id          TEXT    NOT NULL,
  fingerprint     TEXT    NOT NULL,
  state           TEXT    NOT NULL CHECK (state IN ('in_flight', 'done')),
  response_status INTEGER,
  response_body   TEXT,
  locked_at       INTEGER,
  created_at      INTEGER NOT NULL,
  completed_at    INTEGER,
  CHECK ((state = 'done') = (response_status IS NOT NULL AND response_body IS NOT NULL)),
  PRIMARY KEY (client_id, correlation_id, trx_id)
) WITHOUT ROWID;
