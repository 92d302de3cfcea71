-- Passenger identity documents taken at OrderCreate (spec 2.4; DESIGN 5). The number is
-- stored only as AES-256-GCM ciphertext (tag appended) with its 96-bit nonce and the version of
-- the field key, all base64; the additional authenticated data binds it to order, passenger
-- and document, so it is not stored. Erasure (spec 8) sets every personal column to NULL and
-- stamps erased_at: the row stays so that "erased" can be told apart from "never held".
CREATE TABLE IF NOT EXISTS identity_documents (
  document_id          TEXT PRIMARY KEY,
  order_id             TEXT NOT NULL,
  pax_id               TEXT NOT NULL,
  -- PADIS 7365 code.
  type_code            TEXT,
  citizenship          TEXT,
  issuing_country      TEXT,
  residence_country    TEXT,
  -- ISO dates, YYYY-MM-DD.
  issue_date           TEXT,
  expiry_date          TEXT,
  holder_surname       TEXT,
  -- JSON arrays of strings.
  given_names          TEXT,
  middle_names         TEXT,
  suffix_name          TEXT,
  title_name           TEXT,
  birth_date           TEXT,
  birthplace           TEXT,
  gender               TEXT,
  number_ciphertext    TEXT,
  number_nonce         TEXT,
  key_version          INTEGER,
  created_at           INTEGER NOT NULL,
  erased_at            INTEGER,
  -- A live row has what masking and reveal need; an erased one has no personal data left.
  CHECK (erased_at IS NOT NULL OR (type_code IS NOT NULL AND holder_surname IS NOT NULL
    AND number_ciphertext IS NOT NULL AND number_nonce IS NOT NULL AND key_version IS NOT NULL)),
  CHECK (erased_at IS NULL OR (type_code IS NULL AND holder_surname IS NULL AND birth_date IS NULL
    AND number_ciphertext IS NULL AND number_nonce IS NULL AND given_names IS NULL))
);
CREATE INDEX IF NOT EXISTS identity_documents_order ON identity_documents (order_id);
