-- Issue 22: several gateway processes on one data directory. A stored OrderViewRS (0021) is a
-- function of the order as committed (kept true by 0021's triggers) and of what encoded it: the
-- code and the configuration (designator, airline name, supply seed). The gateway used to empty
-- the table at every boot for the second; with workers restarted under load beside others that
-- write and serve views, a row now names what encoded it instead, and a process serves only the
-- rows written under its own key (apps/gateway/src/handlers/order-view-cache.ts storedViewKey).
-- Rows written before this migration have the empty key, which no process has.
ALTER TABLE order_views ADD COLUMN view_key TEXT NOT NULL DEFAULT '';
