-- The closing check (issue 10; docs/orders.md "Closing") walks booked orders by order id, from where
-- its last run stopped, keeping those whose last flight's date has come. Only booked orders are in
-- this index, so the walk never reads the held, cancelled and closed ones.
CREATE INDEX IF NOT EXISTS orders_booked_travel ON orders (order_id, travel_to) WHERE state = 'booked';
