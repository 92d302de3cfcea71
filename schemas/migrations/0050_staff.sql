-- The airline's staff console (issue 12; docs/staff-console.md, decision 0034).
--
-- staff_accounts: one row per member of staff, created by `ndc-gateway staff add`. The password
-- only as an argon2id hash (Bun.password); the TOTP secret (RFC 6238) sealed with the field key
-- like a document number, because it is a credential a copy of the file must not give away.
-- failed_logins and locked_until carry the lockout; totp_last_step refuses a code used twice.
CREATE TABLE IF NOT EXISTS staff_accounts (
  staff_id        TEXT    PRIMARY KEY NOT NULL,
  username        TEXT    NOT NULL UNIQUE,
  role            TEXT    NOT NULL CHECK (role IN ('agent', 'senior_agent', 'supervisor', 'admin')),
  password_hash   TEXT    NOT NULL,
  totp_ciphertext TEXT    NOT NULL,
  totp_nonce      TEXT    NOT NULL,
  totp_key_version INTEGER NOT NULL,
  totp_last_step  INTEGER NOT NULL DEFAULT 0,
  failed_logins   INTEGER NOT NULL DEFAULT 0,
  locked_until    INTEGER,
  disabled_at     INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);

-- staff_sessions: a logged-in console session. Only the SHA-256 of the cookie's token and of the
-- CSRF token are kept, so a copy of the table opens no session. A session ends at whichever comes
-- first: 30 minutes after last_seen_at, 12 hours after created_at, or ended_at (logout, disable).
CREATE TABLE IF NOT EXISTS staff_sessions (
  session_hash  TEXT    PRIMARY KEY NOT NULL,
  staff_id      TEXT    NOT NULL REFERENCES staff_accounts (staff_id),
  csrf_hash     TEXT    NOT NULL,
  created_at    INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,
  ended_at      INTEGER,
  remote        TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS staff_sessions_staff ON staff_sessions (staff_id);

-- staff_audit: every staff action (who, when, from where, which order or document, what, why),
-- append-only (the triggers refuse UPDATE and DELETE) and hash-chained: each row's hash covers
-- its fields and the previous row's hash, so a row altered outside SQL triggers (or a row
-- removed) breaks the chain, which `ndc-gateway staff audit verify` reports. Never a document
-- number, a password or a TOTP code: the reveal names the document only.
CREATE TABLE IF NOT EXISTS staff_audit (
  seq             INTEGER PRIMARY KEY AUTOINCREMENT,
  at              INTEGER NOT NULL,
  staff_id        TEXT    NOT NULL,
  username        TEXT    NOT NULL,
  role            TEXT    NOT NULL,
  remote          TEXT    NOT NULL,
  action          TEXT    NOT NULL,
  outcome         TEXT    NOT NULL,
  order_id        TEXT,
  document_ref    TEXT,
  reason_category TEXT,
  reason          TEXT,
  detail          TEXT,
  prev_hash       TEXT    NOT NULL,
  hash            TEXT    NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS staff_audit_order ON staff_audit (order_id);
CREATE INDEX IF NOT EXISTS staff_audit_action ON staff_audit (action);
CREATE TRIGGER IF NOT EXISTS staff_audit_no_update BEFORE UPDATE ON staff_audit
BEGIN SELECT RAISE(ABORT, 'staff_audit is append-only'); END;
CREATE TRIGGER IF NOT EXISTS staff_audit_no_delete BEFORE DELETE ON staff_audit
BEGIN SELECT RAISE(ABORT, 'staff_audit is append-only'); END;
