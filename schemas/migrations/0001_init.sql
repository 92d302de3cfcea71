-- Baseline. Tables of each area come in their own numbered migrations.
CREATE TABLE IF NOT EXISTS gateway_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
