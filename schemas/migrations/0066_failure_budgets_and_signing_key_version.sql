-- Issue 22: several gateway processes on one data directory.
--
-- Failed authentications per source (the token endpoint's client authentications, the staff
-- console's logins), one token bucket per source kept here rather than in each process's memory,
-- so a spray split over the processes spends one budget (packages/auth/src/failure-budget.ts,
-- docs/authentication.md). A row left alone for a minute is full again and is deleted.
CREATE TABLE failure_budgets (
  source TEXT PRIMARY KEY NOT NULL,
  tokens REAL NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX failure_budgets_updated_at ON failure_budgets (updated_at);

-- The token signing key joins the registry's change counter (0013): every process re-reads the
-- key when it moves, so a key replaced by one process (or the CLI) signs and verifies in all of
-- them from their next call (packages/auth/src/token/signing-key.ts).
CREATE TRIGGER registry_version_token_signing_keys_insert AFTER INSERT ON token_signing_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_token_signing_keys_update AFTER UPDATE ON token_signing_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_token_signing_keys_delete AFTER DELETE ON token_signing_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;
