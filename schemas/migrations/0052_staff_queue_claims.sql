-- Who took a staff work item (issue 12 item 7: each item shows who took it). One row per item of a
-- queue; taking an item someone else holds replaces the row, and the staff audit trail keeps the
-- history (queue.take, naming whom it was taken from).
CREATE TABLE IF NOT EXISTS staff_queue_claims (
  queue     TEXT    NOT NULL,
  item_id   TEXT    NOT NULL,
  staff_id  TEXT    NOT NULL,
  username  TEXT    NOT NULL,
  taken_at  INTEGER NOT NULL,
  PRIMARY KEY (queue, item_id)
);
