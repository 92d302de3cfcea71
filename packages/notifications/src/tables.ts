import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Notification subscriptions (schemas/migrations/0025_notifications.sql). Only @ndc/notifications reads or writes them. */
export const notificationSubscriptions = sqliteTable(
  "notification_subscriptions",
  {
    subscriptionId: text("subscription_id").primaryKey(),
    agencyId: text("agency_id").notNull(),
    clientId: text("client_id").notNull(),
    url: text("url").notNull(),
    events: text("events").notNull(),
    secretCiphertext: text("secret_ciphertext").notNull(),
    secretNonce: text("secret_nonce").notNull(),
    keyVersion: integer("key_version").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("notification_subscriptions_agency").on(t.agencyId)],
);

/** The outbox: one row per notification and subscription; delivery_id is the webhook-id. */
export const notificationDeliveries = sqliteTable(
  "notification_deliveries",
  {
    deliveryId: text("delivery_id").primaryKey(),
    subscriptionId: text("subscription_id").notNull(),
    event: text("event").notNull(),
    messageName: text("message_name").notNull(),
    orderId: text("order_id"),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    claimedUntil: integer("claimed_until"),
    lastHttpStatus: integer("last_http_status"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("notification_deliveries_due").on(t.status, t.nextAttemptAt), index("notification_deliveries_subscription").on(t.subscriptionId, t.createdAt), index("notification_deliveries_order").on(t.orderId, t.createdAt)],
);
