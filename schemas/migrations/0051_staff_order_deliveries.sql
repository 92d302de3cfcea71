-- The staff console's order page lists the notifications sent about the order (issue 12 item 3):
-- an index so that read is a seek, not a scan of the whole outbox.
CREATE INDEX IF NOT EXISTS notification_deliveries_order ON notification_deliveries (order_id, created_at);
