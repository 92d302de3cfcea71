-- Pushed notifications (issue 10; docs/notifications.md). A subscription belongs to one selling
-- agency; its signing secret is stored only sealed with the field key (AES-256-GCM, base64), and
-- shown once, when it is made or rotated. Deleting a subscription keeps nothing to send.
CREATE TABLE IF NOT EXISTS notification_subscriptions (
  subscription_id   TEXT PRIMARY KEY,
  agency_id         TEXT NOT NULL,
  client_id         TEXT NOT NULL,
  url               TEXT NOT NULL,
  -- JSON array of event names.
  events            TEXT NOT NULL,
  secret_ciphertext TEXT NOT NULL,
  secret_nonce      TEXT NOT NULL,
  key_version       INTEGER NOT NULL,
  created_at        INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS notification_subscriptions_agency ON notification_subscriptions (agency_id);

-- The outbox: one row per (notification, subscription), written in the transaction of the state
-- change that causes it. delivery_id is the Standard Webhooks webhook-id, the same on every
-- attempt. body is the message exactly as first built, so every attempt signs the same bytes.
-- status: pending (next_attempt_at says when), delivered, failed (the schedule ran out).
CREATE TABLE IF NOT EXISTS notification_deliveries (
  delivery_id      TEXT PRIMARY KEY,
  subscription_id  TEXT NOT NULL,
  event            TEXT NOT NULL,
  message_name     TEXT NOT NULL,
  order_id         TEXT,
  body             TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,
  -- A dispatcher that took the row for an attempt; another leaves it until claimed_until.
  claimed_until    INTEGER,
  last_http_status INTEGER,
  last_error       TEXT,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS notification_deliveries_due ON notification_deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS notification_deliveries_subscription ON notification_deliveries (subscription_id, created_at);
