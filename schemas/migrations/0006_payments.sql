-- The payment ledger (spec 2.5, 3, 4.4 rules 4-7; DESIGN 5 Money). Amounts are integer minor
-- units of the row's currency; points are integer points. Never a card number or CVV: card legs
-- keep brand, last four and the PSP reference only.

-- One row per payment leg. State: authorising (PSP outcome unknown, for the reconciler),
-- declined, authorised, captured, voided, refunded (in full). A leg "ends" once: at capture or void.
CREATE TABLE IF NOT EXISTS payment_legs (
  leg_id          TEXT PRIMARY KEY,
  order_id        TEXT NOT NULL,
  -- What the leg pays for (the sale or one post-sale change); a capture is for one change.
  change_ref      TEXT NOT NULL,
  seq             INTEGER NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN ('card', 'voucher', 'settlement', 'loyalty')),
  state           TEXT NOT NULL,
  currency        TEXT NOT NULL,
  authorised      INTEGER NOT NULL DEFAULT 0 CHECK (authorised >= 0),
  captured        INTEGER NOT NULL DEFAULT 0 CHECK (captured >= 0 AND captured <= authorised),
  refunded        INTEGER NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= captured),
  requested       INTEGER NOT NULL,
  authorise_key   TEXT NOT NULL UNIQUE,
  card_brand      TEXT,
  card_last4      TEXT,
  psp_reference   TEXT,
  voucher_code    TEXT,
  settlement_account_id TEXT,
  settlement_method     TEXT,
  member_account  TEXT,
  certificate_id  TEXT,
  -- Loyalty legs: points reserved at authorisation, spent at capture, given back by refunds.
  points          INTEGER,
  points_captured INTEGER NOT NULL DEFAULT 0,
  points_refunded INTEGER NOT NULL DEFAULT 0,
  decline_code    TEXT,
  created_at      INTEGER NOT NULL,
  ended_at        INTEGER,
  UNIQUE (order_id, seq)
);
CREATE INDEX IF NOT EXISTS payment_legs_order ON payment_legs (order_id, seq);
CREATE INDEX IF NOT EXISTS payment_legs_state ON payment_legs (state);

-- Append-only journal of every movement, hash-chained to the entry before (formance-style
-- tamper evidence). The triggers refuse UPDATE and DELETE so the chain can only grow.
CREATE TABLE IF NOT EXISTS payment_ledger_entries (
  seq             INTEGER PRIMARY KEY,
  order_id        TEXT NOT NULL,
  leg_id          TEXT NOT NULL,
  type            TEXT NOT NULL,
  amount          INTEGER NOT NULL,
  currency        TEXT NOT NULL,
  points          INTEGER NOT NULL DEFAULT 0,
  idempotency_key TEXT NOT NULL,
  at              INTEGER NOT NULL,
  prev_hash       TEXT NOT NULL,
  hash            TEXT NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS payment_ledger_entries_leg ON payment_ledger_entries (leg_id);
CREATE TRIGGER IF NOT EXISTS payment_ledger_entries_no_update BEFORE UPDATE ON payment_ledger_entries
BEGIN SELECT RAISE(ABORT, 'payment_ledger_entries is append-only'); END;
CREATE TRIGGER IF NOT EXISTS payment_ledger_entries_no_delete BEFORE DELETE ON payment_ledger_entries
BEGIN SELECT RAISE(ABORT, 'payment_ledger_entries is append-only'); END;

-- Stripe/formance-style idempotency: the key, a hash of the request, and the stored answer.
-- state in_flight holds a recovery point (the plan) until the answer is complete.
CREATE TABLE IF NOT EXISTS payment_idempotency (
  idempotency_key TEXT PRIMARY KEY,
  operation       TEXT NOT NULL,
  fingerprint     TEXT NOT NULL,
  state           TEXT NOT NULL,
  response        TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);

-- Vouchers: balance is what is left after captures; pending is authorised, not yet captured
-- or voided. balance - pending never goes negative.
CREATE TABLE IF NOT EXISTS vouchers (
  code        TEXT PRIMARY KEY,
  currency    TEXT NOT NULL,
  balance     INTEGER NOT NULL CHECK (balance >= 0),
  pending     INTEGER NOT NULL DEFAULT 0 CHECK (pending >= 0 AND pending <= balance),
  active      INTEGER NOT NULL DEFAULT 1,
  expires_at  INTEGER NOT NULL
);

-- The airline's own loyalty programme: members and the redemption certificates they issue.
CREATE TABLE IF NOT EXISTS loyalty_accounts (
  member_account TEXT PRIMARY KEY,
  programme      TEXT NOT NULL,
  points         INTEGER NOT NULL CHECK (points >= 0),
  pending        INTEGER NOT NULL DEFAULT 0 CHECK (pending >= 0 AND pending <= points)
);
CREATE TABLE IF NOT EXISTS loyalty_certificates (
  certificate_id TEXT PRIMARY KEY,
  member_account TEXT NOT NULL REFERENCES loyalty_accounts (member_account),
  points         INTEGER NOT NULL CHECK (points > 0),
  expires_at     INTEGER NOT NULL,
  -- issued, reserved (a leg authorised on it), redeemed (captured: spent for good).
  state          TEXT NOT NULL,
  leg_id         TEXT,
  issued_at      INTEGER NOT NULL
);

-- The seller's settlement accounts (SettlementPlan): CA BSP cash, DP ARC, MS direct bill.
-- headroom = credit_limit - used - pending, never negative.
CREATE TABLE IF NOT EXISTS settlement_accounts (
  account_id   TEXT PRIMARY KEY,
  agency_id    TEXT NOT NULL,
  method       TEXT NOT NULL CHECK (method IN ('CA', 'DP', 'MS')),
  currency     TEXT NOT NULL,
  credit_limit INTEGER NOT NULL CHECK (credit_limit >= 0),
  used         INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
  pending      INTEGER NOT NULL DEFAULT 0 CHECK (pending >= 0),
  active       INTEGER NOT NULL DEFAULT 1,
  CHECK (used + pending <= credit_limit)
);
CREATE INDEX IF NOT EXISTS settlement_accounts_agency ON settlement_accounts (agency_id);

-- The simulated PSP's own books (an outside system: it survives a gateway crash, so a status
-- query by idempotency key finds an authorisation the gateway never heard back about).
CREATE TABLE IF NOT EXISTS psp_sim_requests (
  idempotency_key TEXT PRIMARY KEY,
  operation       TEXT NOT NULL,
  response        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS psp_sim_payments (
  psp_reference TEXT PRIMARY KEY,
  state         TEXT NOT NULL,
  currency      TEXT NOT NULL,
  authorised    INTEGER NOT NULL,
  captured      INTEGER NOT NULL DEFAULT 0,
  refunded      INTEGER NOT NULL DEFAULT 0
);
