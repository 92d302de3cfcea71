-- The staff dashboard and GET /metrics count orders and revenue per hour of creation (issue 12
-- item 9, docs/staff-console.md): the last 24 hours of orders by created_at, without reading the
-- whole table. orders_owner_created leads with the agency, so it cannot serve a range on time alone.
CREATE INDEX IF NOT EXISTS orders_created ON orders (created_at);
