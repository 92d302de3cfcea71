-- Staff items for payment steps the reconciler cannot finish (spec 3, issue 9 item 11): one row
-- per operation. Each failed pass counts an attempt; at RECONCILE_MAX_ATTEMPTS the row is
-- raised (`raised_at`) as a reconcile_failed staff item and the reconciler stops retrying it
-- until staff resolve it (`ndc-gateway reconcile-failed list | resolve`). No personal data:
-- ids, the wire code and the English text of the last error.
CREATE TABLE IF NOT EXISTS reconcile_failures (
  operation_id  TEXT    PRIMARY KEY,
  kind          TEXT    NOT NULL,
  order_id      TEXT,
  phase         TEXT    NOT NULL,
  attempts      INTEGER NOT NULL,
  last_error    TEXT    NOT NULL,
  first_failed_at INTEGER NOT NULL,
  last_failed_at  INTEGER NOT NULL,
  raised_at     INTEGER,
  -- retry: staff fixed the cause, the reconciler tries again; closed: settled outside the gateway.
  resolution    TEXT    CHECK (resolution IN ('retry', 'closed')),
  resolved_by   TEXT,
  resolved_at   INTEGER,
  note          TEXT
);
CREATE INDEX IF NOT EXISTS reconcile_failures_open ON reconcile_failures (raised_at) WHERE raised_at IS NOT NULL AND resolved_at IS NULL;
