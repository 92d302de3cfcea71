-- The airline's overrides of a fare rule (spec 4.7 SHPOR1 rule 4, issue 9 item 10): the airline's
-- own staff are never refused by the fare; each time a change goes through that the fare refuses,
-- one row records who, when, which rule was overridden, on which order and operation. Append-only
-- (the triggers refuse UPDATE and DELETE) and hash-chained: each row's hash covers its fields and
-- the previous row's hash, so a row altered or removed outside SQL triggers breaks the chain
-- (`ndc-gateway overrides verify`). No personal data: a staff id, ids and the rule's English text.
CREATE TABLE IF NOT EXISTS servicing_overrides (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  at            INTEGER NOT NULL,
  staff_id      TEXT    NOT NULL,
  channel       TEXT    NOT NULL,
  order_id      TEXT    NOT NULL,
  operation_id  TEXT    NOT NULL,
  -- The refusal the fare would have given (fare_not_renameable, fare_not_changeable).
  rule_code     TEXT    NOT NULL,
  rule_text     TEXT    NOT NULL,
  prev_hash     TEXT    NOT NULL,
  hash          TEXT    NOT NULL UNIQUE
);
CREATE UNIQUE INDEX IF NOT EXISTS servicing_overrides_operation ON servicing_overrides (operation_id);
CREATE TRIGGER IF NOT EXISTS servicing_overrides_no_update BEFORE UPDATE ON servicing_overrides
BEGIN SELECT RAISE(ABORT, 'servicing_overrides is append-only'); END;
CREATE TRIGGER IF NOT EXISTS servicing_overrides_no_delete BEFORE DELETE ON servicing_overrides
BEGIN SELECT RAISE(ABORT, 'servicing_overrides is append-only'); END;
