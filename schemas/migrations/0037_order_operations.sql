-- Issue 10, the operations half (docs/notifications.md, docs/scheduler.md): what the operations
-- sweeps find orders by, kept on the orders index row and written by the order actor with every
-- change of the order (the same upsert, no extra statement):
--   flight_keys    JSON array of the order's flight keys now: the operations feed's orders on a flight;
--   unflown_from   the date of its first flight not yet recorded flown: the delivery sweep's candidates;
--   travel_end_at  when travel ends, the airline's retimes applied: the retention sweep's deadline;
--   partner_awaiting  partner products and rides their partner has not reported fulfilled: the read-back's candidates.
ALTER TABLE orders ADD COLUMN flight_keys TEXT;
ALTER TABLE orders ADD COLUMN unflown_from TEXT;
ALTER TABLE orders ADD COLUMN travel_end_at INTEGER;
ALTER TABLE orders ADD COLUMN partner_awaiting INTEGER NOT NULL DEFAULT 0;

-- Orders written before: their flights as created (the order's first journal event; a flight
-- replaced since is still listed, and the order's actor, which decides every change, ignores it),
-- nothing recorded flown, travel ending as the scheduled dates say (retention-sweep.ts travelEndOf).
UPDATE orders SET
  flight_keys = (
    SELECT json_group_array(k.value) FROM actor_journal j, json_each(j.payload, '$.order.journeys') jr, json_each(jr.value, '$.flightKeys') k
    WHERE j.kind = 'orders.order' AND j.key = orders.order_id AND j.seq = 1
  ),
  unflown_from = CASE WHEN state = 'booked' THEN travel_from END,
  partner_awaiting = (
    SELECT count(*) FROM actor_journal j, json_each(j.payload, '$.order.items') i
    WHERE j.kind = 'orders.order' AND j.key = orders.order_id AND j.seq = 1 AND json_extract(i.value, '$.kind') IN ('partner_product', 'ride')
  ),
  travel_end_at = CASE WHEN travel_to IS NOT NULL THEN (CAST(strftime('%s', travel_to) AS INTEGER) + 2 * 86400) * 1000 END;

CREATE INDEX IF NOT EXISTS orders_unflown ON orders (unflown_from) WHERE state = 'booked' AND unflown_from IS NOT NULL;
CREATE INDEX IF NOT EXISTS orders_travel_end ON orders (travel_end_at);
CREATE INDEX IF NOT EXISTS orders_partner_awaiting ON orders (travel_from) WHERE state = 'booked' AND partner_awaiting > 0;
