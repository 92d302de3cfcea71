-- Actor runtime (packages/actors): the write-ahead journal and optional state snapshots.
-- An actor kind writes its effects here in the same transaction as its domain rows, before
-- it applies them in memory and answers (DESIGN 4).

-- One row per event of one actor. seq counts from 1 without gaps per (kind, key); the
-- primary key also stops a second writer for the same key (its seq collides and its
-- transaction rolls back) should ownership ever be misconfigured.
CREATE TABLE IF NOT EXISTS actor_journal (
  kind         TEXT    NOT NULL,
  key          TEXT    NOT NULL,
  seq          INTEGER NOT NULL CHECK (seq >= 1),
  payload      TEXT    NOT NULL CHECK (json_valid(payload)),
  committed_at INTEGER NOT NULL,
  PRIMARY KEY (kind, key, seq)
) WITHOUT ROWID;

-- The latest state of one actor as of journal seq `seq`, so rehydration replays only the
-- events after it. Optional per kind; the journal stays the source of truth.
CREATE TABLE IF NOT EXISTS actor_snapshots (
  kind       TEXT    NOT NULL,
  key        TEXT    NOT NULL,
  seq        INTEGER NOT NULL CHECK (seq >= 0),
  state      TEXT    NOT NULL CHECK (json_valid(state)),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (kind, key)
) WITHOUT ROWID;
