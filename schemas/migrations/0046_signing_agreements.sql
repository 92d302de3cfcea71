-- Signing agreements (issue 11 item 1, docs/signatures.md): per agency, a policy for signed
-- messages and whether the airline signs its OrderViewRS answers, on the agencies row itself so
-- the caller cache (decision 0008) already holds them: an unsigned call costs no extra read. The
-- agencies update trigger of 0013 moves registry_version when either changes.
ALTER TABLE agencies ADD COLUMN signing_policy TEXT NOT NULL DEFAULT 'none' CHECK (signing_policy IN ('none', 'optional', 'required'));
ALTER TABLE agencies ADD COLUMN airline_signs INTEGER NOT NULL DEFAULT 0 CHECK (airline_signs IN (0, 1));

-- The certificates and public keys an agency signs with. Only these verify its signatures: a
-- KeyInfo in the message is never trusted (CVE-2024-32962). Revoked keys stay, for evidence.
CREATE TABLE IF NOT EXISTS agency_signing_keys (
  agency_id   TEXT    NOT NULL REFERENCES agencies (agency_id),
  -- SHA-256 (hex) of the certificate's DER, or of the public key's SubjectPublicKeyInfo DER.
  fingerprint TEXT    NOT NULL,
  kind        TEXT    NOT NULL CHECK (kind IN ('certificate', 'public_key')),
  algorithm   TEXT    NOT NULL CHECK (algorithm IN ('rsa-sha256', 'ecdsa-p256-sha256')),
  pem         TEXT    NOT NULL,
  subject     TEXT,
  -- Validity window in ms since the epoch; NULL is open (a bare public key without --not-after).
  not_before  INTEGER,
  not_after   INTEGER,
  added_at    INTEGER NOT NULL,
  revoked_at  INTEGER,
  PRIMARY KEY (agency_id, fingerprint)
);

CREATE TRIGGER registry_version_signing_keys_insert AFTER INSERT ON agency_signing_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_signing_keys_update AFTER UPDATE ON agency_signing_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_signing_keys_delete AFTER DELETE ON agency_signing_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;
