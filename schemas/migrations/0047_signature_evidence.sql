-- Non-repudiation (issue 11 item 3, docs/signatures.md): one row per verified signed request,
-- append-only (the triggers refuse UPDATE and DELETE) and hash-chained like the ledger: each
-- row's hash covers its fields and the previous row's hash. No personal data here: the signed
-- original holds identity documents, so it is kept sealed in signed_originals (owned by @ndc/pii)
-- and only its SHA-256 is chained.
CREATE TABLE IF NOT EXISTS signature_evidence (
  seq              INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id         TEXT    NOT NULL,
  message          TEXT    NOT NULL,
  form             TEXT    NOT NULL,
  agency_id        TEXT    NOT NULL,
  client_id        TEXT    NOT NULL,
  fingerprint      TEXT    NOT NULL,
  signature_method TEXT    NOT NULL,
  canonicalization TEXT    NOT NULL,
  reference_uri    TEXT    NOT NULL,
  -- SHA-256 (hex) of the exact request bytes as received.
  original_sha256  TEXT    NOT NULL,
  verified_at      INTEGER NOT NULL,
  prev_hash        TEXT    NOT NULL,
  hash             TEXT    NOT NULL UNIQUE
);
CREATE INDEX IF NOT EXISTS signature_evidence_order ON signature_evidence (order_id);
CREATE TRIGGER IF NOT EXISTS signature_evidence_no_update BEFORE UPDATE ON signature_evidence
BEGIN SELECT RAISE(ABORT, 'signature_evidence is append-only'); END;
CREATE TRIGGER IF NOT EXISTS signature_evidence_no_delete BEFORE DELETE ON signature_evidence
BEGIN SELECT RAISE(ABORT, 'signature_evidence is append-only'); END;

-- The signed originals, sealed with the field key (AES-256-GCM, bound to order and evidence row),
-- erased with the order's identity documents by eraseIdentityDocuments on every erasure path.
CREATE TABLE IF NOT EXISTS signed_originals (
  evidence_seq INTEGER PRIMARY KEY,
  order_id     TEXT    NOT NULL,
  ciphertext   BLOB,
  nonce        BLOB,
  key_version  INTEGER,
  erased_at    INTEGER
);
CREATE INDEX IF NOT EXISTS signed_originals_order ON signed_originals (order_id);
