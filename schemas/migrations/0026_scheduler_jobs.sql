-- One row per scheduler job (docs/scheduler.md): its lock (a lease: holder and lease_until, so two
-- schedulers on one store never run the same job at once, and a dead holder's lease lapses), and
-- what `ndc-gateway scheduler status` shows: the last run, its outcome and summary, the next run.
CREATE TABLE IF NOT EXISTS scheduler_jobs (
  job              TEXT PRIMARY KEY,
  holder           TEXT,
  lease_until      INTEGER NOT NULL DEFAULT 0,
  last_started_at  INTEGER,
  last_finished_at INTEGER,
  -- done or failed
  last_outcome     TEXT,
  -- JSON: the job's summary, or {"error": "..."}
  last_summary     TEXT,
  next_run_at      INTEGER,
  updated_at       INTEGER NOT NULL
);
