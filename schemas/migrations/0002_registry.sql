-- Seller registry (spec 2.1, 5): agencies, NDC clients, aggregator grants, local API keys,
-- and the key that signs access tokens. Owned by @ndc/auth.

CREATE TABLE IF NOT EXISTS agencies (
  agency_id   TEXT PRIMARY KEY,
  iata_number TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  active      INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_at  INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS clients (
  client_id         TEXT PRIMARY KEY,
  name              TEXT,
  -- argon2id (Bun.password); the secret itself is never stored.
  secret_hash       TEXT NOT NULL,
  -- Bumped on rotation: tokens carry it, so a rotation revokes them on the next call.
  secret_generation INTEGER NOT NULL DEFAULT 1,
  -- Bumped on rotation and on suspension: a resumed client needs fresh tokens.
  token_epoch       INTEGER NOT NULL DEFAULT 1,
  -- Granted scopes, space-separated (spec 5.5).
  scopes            TEXT NOT NULL DEFAULT '',
  agency_id         TEXT NOT NULL REFERENCES agencies (agency_id),
  suspended         INTEGER NOT NULL DEFAULT 0 CHECK (suspended IN (0, 1)),
  -- The shared sandbox client: refused by every gateway not in local mode (spec 5.8).
  local_only        INTEGER NOT NULL DEFAULT 0 CHECK (local_only IN (0, 1)),
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS clients_agency ON clients (agency_id);

-- The agencies an ndc:aggregator client may sell as (spec 2.1, 5.6).
CREATE TABLE IF NOT EXISTS aggregator_grants (
  client_id  TEXT NOT NULL REFERENCES clients (client_id),
  agency_id  TEXT NOT NULL REFERENCES agencies (agency_id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (client_id, agency_id)
);

-- X-API-Key credentials, accepted by a local gateway only (spec 5.8). Keys are 256-bit random,
-- so a SHA-256 digest is a safe stored form and an indexed lookup.
CREATE TABLE IF NOT EXISTS api_keys (
  key_id     TEXT PRIMARY KEY,
  key_hash   TEXT NOT NULL UNIQUE,
  client_id  TEXT NOT NULL REFERENCES clients (client_id),
  local_only INTEGER NOT NULL DEFAULT 1 CHECK (local_only IN (0, 1)),
  revoked    INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1)),
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS api_keys_client ON api_keys (client_id);

-- HMAC-SHA256 key of the access tokens, created once so tokens survive a restart and are
-- honoured by every process on this database.
CREATE TABLE IF NOT EXISTS token_signing_keys (
  key_id     TEXT PRIMARY KEY,
  secret     TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
