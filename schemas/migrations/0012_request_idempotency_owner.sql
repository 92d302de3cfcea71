-- The process that holds a request_idempotency row in flight: its instance id, new at every
-- boot. A later gateway reads another instance's lock as left by a dead request (one gateway
-- process serves a store) and lets the saga behind it decide: retry later while the saga is
-- unfinished, take the key over once the reconciler has settled it (packages/orders,
-- idempotency.ts). NULL on rows written before this column, and on answered rows.
ALTER TABLE request_idempotency ADD COLUMN owner TEXT;
