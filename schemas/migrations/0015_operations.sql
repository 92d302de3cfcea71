-- One operation record (issue 8 §1, atomic phases): the request's idempotency row IS the
-- saga's recovery record. A request keyed on (seller client, CorrelationID, TrxID) and the
-- multi-actor work it starts (OrderCreate, a payment retry, later a cancellation) share one row:
-- its fingerprint and stored answer (Stripe-style idempotency), the process holding it in
-- flight, and the saga's kind, phase, status and plan. Each phase is written in the same
-- transaction as the effects it records (the holds, the order, the capture), never on its own.
CREATE TABLE IF NOT EXISTS operations (
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
) WITHOUT ROWID;

CREATE UNIQUE INDEX IF NOT EXISTS operations_request ON operations (client_id, correlation_id, trx_id, kind) WHERE client_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS operations_open ON operations (updated_at) WHERE status = 'running';
CREATE INDEX IF NOT EXISTS operations_order ON operations (order_id);

-- The sagas first, each with the request that started it (its plan names CorrelationID and TrxID).
INSERT INTO operations (operation_id, kind, client_id, correlation_id, trx_id, fingerprint, order_id, owner_client_id, owner_agency_id,
                        phase, status, plan, error_code, created_at, updated_at)
SELECT saga_id, kind,
       CASE WHEN json_extract(plan, '$.request.correlationId') IS NOT NULL THEN owner_client_id END,
       json_extract(plan, '$.request.correlationId'), json_extract(plan, '$.request.trxId'),
       -- The request's fingerprint comes with its row below; a saga whose request row is gone
       -- (released when it settled) has none: its plan's fingerprint still judges a retry.
       '', order_id, owner_client_id, owner_agency_id,
       step, status, plan, error_code, created_at, updated_at
FROM sagas;

-- Then each request's lock and answer onto its saga's row...
UPDATE operations SET
  fingerprint     = r.fingerprint,
  lock_owner      = CASE WHEN r.state = 'in_flight' THEN coalesce(r.owner, 'migrated') END,
  locked_at       = r.locked_at,
  response_status = r.response_status,
  response_body   = r.response_body,
  completed_at    = r.completed_at
FROM request_idempotency r
WHERE operations.client_id = r.client_id AND operations.correlation_id = r.correlation_id AND operations.trx_id = r.trx_id
  AND operations.kind = 'order_create';

-- ...and the requests that never opened a saga (refused before their holds) as their own rows.
INSERT INTO operations (operation_id, kind, client_id, correlation_id, trx_id, fingerprint, phase, status,
                        lock_owner, locked_at, response_status, response_body, created_at, updated_at, completed_at)
SELECT 'RQ-' || hex(r.client_id || char(0) || r.correlation_id || char(0) || r.trx_id), 'order_create',
       r.client_id, r.correlation_id, r.trx_id, r.fingerprint, 'none',
       CASE WHEN r.state = 'done' THEN 'answered' ELSE 'done' END,
       CASE WHEN r.state = 'in_flight' THEN coalesce(r.owner, 'migrated') END, r.locked_at,
       r.response_status, r.response_body, r.created_at, coalesce(r.completed_at, r.created_at), r.completed_at
FROM request_idempotency r
WHERE NOT EXISTS (
  SELECT 1 FROM operations o
  WHERE o.client_id = r.client_id AND o.correlation_id = r.correlation_id AND o.trx_id = r.trx_id AND o.kind = 'order_create'
);

DROP TABLE sagas;
DROP TABLE request_idempotency;
