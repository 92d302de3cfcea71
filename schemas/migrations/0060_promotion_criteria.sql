-- The airline's switch of its promotion criteria (spec 4.5 rule 4, issue 19 item 18): one row,
-- none until an operator first sets it (then the criteria are on, as before the switch existed).
-- Off, OfferPrice asks the promotions engine nothing and prices with no adjustments at all.
CREATE TABLE IF NOT EXISTS promotion_criteria (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  switched_on INTEGER NOT NULL CHECK (switched_on IN (0, 1)),
  changed_at  INTEGER NOT NULL,
  changed_by  TEXT NOT NULL
);
