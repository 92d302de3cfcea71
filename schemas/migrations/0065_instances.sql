-- Process liveness (issue 22, docs/decisions/0040): one row per running process that may own an
-- operation (operations.lock_owner = instance_id). Written at the process's start, its heartbeat
-- moved every few seconds (real time, ms), removed when it stops in order. An operation whose owner
-- is known dead (heartbeat lapsed, or a pid of this host that no longer runs) is taken over at once
-- by the reconciler or by a retry of its request, instead of after ORDERS_RECONCILE_MIN_AGE_MS.
CREATE TABLE instances (
  instance_id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);
