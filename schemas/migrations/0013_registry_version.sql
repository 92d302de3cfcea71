-- One counter for the whole seller registry, moved by a trigger in the same transaction as any
-- change to a registry table (suspend, resume, rotate, scope grant or revoke, agency changes,
-- aggregator grants, API keys), whoever makes it: the gateway, the CLI in another process, or a
-- direct UPDATE. The gateway caches callers' registry rows and re-reads this one row only when
-- the read connection's PRAGMA data_version says some other connection committed
-- (packages/auth/src/access/caller-cache.ts, docs/decisions/0008-per-call-floor.md).
CREATE TABLE registry_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO registry_version (id, version) VALUES (1, 1);

CREATE TRIGGER registry_version_agencies_insert AFTER INSERT ON agencies
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_agencies_update AFTER UPDATE ON agencies
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_agencies_delete AFTER DELETE ON agencies
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_clients_insert AFTER INSERT ON clients
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_clients_update AFTER UPDATE ON clients
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_clients_delete AFTER DELETE ON clients
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_aggregator_grants_insert AFTER INSERT ON aggregator_grants
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_aggregator_grants_update AFTER UPDATE ON aggregator_grants
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_aggregator_grants_delete AFTER DELETE ON aggregator_grants
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_api_keys_insert AFTER INSERT ON api_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_api_keys_update AFTER UPDATE ON api_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER registry_version_api_keys_delete AFTER DELETE ON api_keys
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
END;
