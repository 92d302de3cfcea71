-- Clearance of settlement-plan payments under SwO (spec 2.6, 3; issue 10; docs/payments.md
-- "Clearance"). One row per clearance the simulated Clearance Manager holds: requested when a
-- settlement leg is captured (STTCAP), cleared by the manager's sweep or by PaymentClearanceRQ,
-- cancelled when the payment is refunded before it cleared (STTCAN). Written with the ledger step
-- or the clearing that causes it, in the same transaction as its IATA_PaymentClearanceNotif.
CREATE TABLE IF NOT EXISTS payment_clearances (
  -- ClearanceID_Type: year (4 digits), the airline's accounting code (3), 8 letters or digits.
  clearance_id      TEXT    PRIMARY KEY,
  leg_id            TEXT    NOT NULL,
  order_id          TEXT    NOT NULL,
  -- The agency paying through its settlement account (the payer; its subscriptions are told).
  agency_id         TEXT    NOT NULL,
  status            TEXT    NOT NULL CHECK (status IN ('requested', 'cleared', 'cancelled')),
  amount            INTEGER NOT NULL CHECK (amount > 0),
  currency          TEXT    NOT NULL,
  settlement_method TEXT    NOT NULL,
  -- PaymentCommitmentDateTime: when the leg was captured (epoch ms).
  committed_at      INTEGER NOT NULL,
  remittance_date   TEXT    NOT NULL,
  settlement_date   TEXT    NOT NULL,
  requested_at      INTEGER NOT NULL,
  -- 'manager' (the sweep) or 'request' (PaymentClearanceRQ); set with cleared_at.
  cleared_by        TEXT,
  cleared_at        INTEGER,
  cancelled_at      INTEGER
);
-- One clearance per payment: at most one that is not cancelled, per leg.
CREATE UNIQUE INDEX IF NOT EXISTS payment_clearances_live_leg ON payment_clearances (leg_id) WHERE status <> 'cancelled';
CREATE INDEX IF NOT EXISTS payment_clearances_order ON payment_clearances (order_id);
CREATE INDEX IF NOT EXISTS payment_clearances_due ON payment_clearances (status, requested_at);
