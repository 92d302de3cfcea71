-- The audit of every identity-document erasure (spec 8): one row per order whose documents an
-- erasure took, written in the erasure's own transaction, so no erasure is without its row and no
-- row without its erasure. Which path took them (the retention sweep, a web-shop account's
-- deletion, an airline supervisor's erase), who (the scheduler, the account, the supervisor), why
-- (a supervisor states a reason), how many documents, when. Never a document's value.
-- Append-only: the triggers refuse UPDATE and DELETE.
CREATE TABLE IF NOT EXISTS identity_document_erasures (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id   TEXT    NOT NULL,
  path       TEXT    NOT NULL CHECK (path IN ('retention', 'account_deletion', 'supervisor')),
  actor      TEXT    NOT NULL,
  reason     TEXT,
  documents  INTEGER NOT NULL CHECK (documents > 0),
  erased_at  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS identity_document_erasures_order ON identity_document_erasures (order_id);
CREATE TRIGGER IF NOT EXISTS identity_document_erasures_no_update BEFORE UPDATE ON identity_document_erasures
BEGIN SELECT RAISE(ABORT, 'identity_document_erasures is append-only'); END;
CREATE TRIGGER IF NOT EXISTS identity_document_erasures_no_delete BEFORE DELETE ON identity_document_erasures
BEGIN SELECT RAISE(ABORT, 'identity_document_erasures is append-only'); END;
