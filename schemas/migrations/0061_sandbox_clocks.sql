-- Each seller client's sandbox clock (docs/sandbox-controls.md, issue 19 item 23): how far its
-- business time runs ahead of the gateway's real clock. Only the client's own POST /sandbox/clock
-- moves it; a client with no row runs on real time. In the store, not in memory, so every process
-- on the database (the gateway, a scheduler beside it) reads the same clocks. No foreign key: the
-- registry never deletes a client, and this row is the sandbox's, not the registry's.
CREATE TABLE IF NOT EXISTS sandbox_clocks (
  client_id  TEXT PRIMARY KEY,
  offset_ms  INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
