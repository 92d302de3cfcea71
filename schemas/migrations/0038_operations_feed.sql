-- The simulated operations feed (issue 10; packages/orders/src/operations/feed.ts): one row per
-- disrupted flight once every order on it was changed through its actor, so the feed changes
-- each order once. Which flights are disrupted is a pure function of the supply seed and the
-- flight; this table only records what was applied.
CREATE TABLE IF NOT EXISTS operations_feed (
  flight_key   TEXT PRIMARY KEY NOT NULL,
  kind         TEXT NOT NULL,
  minutes      INTEGER,
  announced_at INTEGER NOT NULL,
  applied_at   INTEGER NOT NULL,
  orders       INTEGER NOT NULL
);
