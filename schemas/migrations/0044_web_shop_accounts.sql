-- Customer accounts of the airline's web shop (spec 8, decision 0029). An account's orders are the
-- orders whose owner client is `web-shop:<account_id>` (agency WEB-SHOP): the link is part of the
-- order itself, written by the order's own write, so no crash can leave an account's order looking
-- like a guest's. Deleting the account stamps deleted_at and clears its email and name in one
-- write, then erases the documents of its orders; the row stays, so a booking that commits after
-- the deletion still finds its account deleted and erases its documents too.
CREATE TABLE IF NOT EXISTS web_shop_accounts (
  account_id  TEXT    PRIMARY KEY,
  email       TEXT,
  name        TEXT,
  created_at  INTEGER NOT NULL,
  deleted_at  INTEGER,
  -- A live account has its email and name; a deleted one has neither.
  CHECK ((deleted_at IS NULL AND email IS NOT NULL AND name IS NOT NULL) OR (deleted_at IS NOT NULL AND email IS NULL AND name IS NULL))
);
-- One live account per email (a deleted one frees it).
CREATE UNIQUE INDEX IF NOT EXISTS web_shop_accounts_email ON web_shop_accounts (email) WHERE deleted_at IS NULL;
