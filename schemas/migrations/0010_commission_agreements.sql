-- Commission agreements (PAYCOM; spec 4.4 rule 7, 4.7 servicing rule 6), one per agency: the
-- seller's agency is what the agreement is made with, so every client of the agency sells under
-- it. No row: the agency earns no commission and its orders disclose none.
--
-- parameters is JSON whose shape depends on kind (packages/payments/src/commission/agreements.ts
-- reads and checks it):
--   percentage  {"basisPoints": 500}
--   tiered      {"tiers": [{"from": 0, "basisPoints": 300}, {"from": 100000, "basisPoints": 500}]}
--   flat        {"amountMinor": 1500}
-- Rates are basis points and amounts integer minor units, so every share is exact. currency is the
-- agreement's own currency (tier thresholds, flat amount); a percentage has none: it applies to
-- a sale in any currency.
CREATE TABLE IF NOT EXISTS commission_agreements (
  agency_id   TEXT    PRIMARY KEY,
  kind        TEXT    NOT NULL CHECK (kind IN ('percentage', 'tiered', 'flat')),
  parameters  TEXT    NOT NULL CHECK (json_valid(parameters)),
  currency    TEXT,
  created_at  INTEGER NOT NULL,
  CHECK ((kind = 'percentage') = (currency IS NULL))
);
