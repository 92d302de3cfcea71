-- The encoded OrderViewRS of an order (docs/decisions/0009, part of 2026-11-26): written by the
-- order's own write, at the end of the transaction that changed the order, and served with one
-- read to an OrderRetrieveRQ whose order is not in memory. A row is there only while it is the
-- view of what is committed: every change to what a view is built from deletes it in the
-- transaction of that change, whoever writes (another process, the CLI, the retention sweep):
-- the orders index row (updated by every order event), the order's payment legs and its
-- identity documents. A view also shows what time changes with no write (the change fee of the
-- band before departure, services delivered once their flight has flown): a row is served only
-- from valid_from (when it was built) until before valid_until (the next band edge or departure;
-- NULL when nothing more changes). The gateway empties the table at boot (the schedule and the
-- encoder are this process's).
CREATE TABLE IF NOT EXISTS order_views (
  order_id TEXT PRIMARY KEY NOT NULL,
  owner_agency_id TEXT NOT NULL,
  response TEXT NOT NULL,
  meta TEXT NOT NULL,
  valid_from INTEGER NOT NULL,
  valid_until INTEGER
);

CREATE TRIGGER IF NOT EXISTS order_views_stale_order_update AFTER UPDATE ON orders
BEGIN DELETE FROM order_views WHERE order_id = OLD.order_id; END;
CREATE TRIGGER IF NOT EXISTS order_views_stale_order_delete AFTER DELETE ON orders
BEGIN DELETE FROM order_views WHERE order_id = OLD.order_id; END;
CREATE TRIGGER IF NOT EXISTS order_views_stale_leg_insert AFTER INSERT ON payment_legs
BEGIN DELETE FROM order_views WHERE order_id = NEW.order_id; END;
CREATE TRIGGER IF NOT EXISTS order_views_stale_leg_update AFTER UPDATE ON payment_legs
BEGIN DELETE FROM order_views WHERE order_id IN (OLD.order_id, NEW.order_id); END;
CREATE TRIGGER IF NOT EXISTS order_views_stale_leg_delete AFTER DELETE ON payment_legs
BEGIN DELETE FROM order_views WHERE order_id = OLD.order_id; END;
CREATE TRIGGER IF NOT EXISTS order_views_stale_document_insert AFTER INSERT ON identity_documents
BEGIN DELETE FROM order_views WHERE order_id = NEW.order_id; END;
CREATE TRIGGER IF NOT EXISTS order_views_stale_document_update AFTER UPDATE ON identity_documents
BEGIN DELETE FROM order_views WHERE order_id IN (OLD.order_id, NEW.order_id); END;
CREATE TRIGGER IF NOT EXISTS order_views_stale_document_delete AFTER DELETE ON identity_documents
BEGIN DELETE FROM order_views WHERE order_id = OLD.order_id; END;
