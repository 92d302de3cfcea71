-- A reconcile_failed item can be resolved by staff capturing or voiding its payment legs from the
-- console (issue 12 item 7; apps/gateway/src/staff/work.ts, packages/orders/src/reconcile/settle.ts),
-- besides retry and closed. SQLite cannot change a CHECK in place, so the table is rebuilt with the
-- same columns and its index, rows copied as they are.
CREATE TABLE reconcile_failures_0055 (
  operation_id  TEXT    PRIMARY KEY,
  kind          TEXT    NOT NULL,
  order_id      TEXT,
  phase         TEXT    NOT NULL,
  attempts      INTEGER NOT NULL,
  last_error    TEXT    NOT NULL,
  first_failed_at INTEGER NOT NULL,
  last_failed_at  INTEGER NOT NULL,
  raised_at     INTEGER,
  -- retry: staff fixed the cause, the reconciler tries again; closed: settled outside the gateway;
  -- captured / voided: staff captured or voided the item's authorised legs through the payments path.
  resolution    TEXT    CHECK (resolution IN ('retry', 'closed', 'captured', 'voided')),
  resolved_by   TEXT,
  resolved_at   INTEGER,
  note          TEXT
);
INSERT INTO reconcile_failures_0055 (operation_id, kind, order_id, phase, attempts, last_error, first_failed_at, last_failed_at, raised_at, resolution, resolved_by, resolved_at, note)
  SELECT operation_id, kind, order_id, phase, attempts, last_error, first_failed_at, last_failed_at, raised_at, resolution, resolved_by, resolved_at, note FROM reconcile_failures;
DROP TABLE reconcile_failures;
ALTER TABLE reconcile_failures_0055 RENAME TO reconcile_failures;
CREATE INDEX IF NOT EXISTS reconcile_failures_open ON reconcile_failures (raised_at) WHERE raised_at IS NOT NULL AND resolved_at IS NULL;
