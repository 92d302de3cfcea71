import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The staff console's tables (schemas/migrations/0050_staff.sql, 0052_staff_queue_claims.sql). */

export const staffAccounts = sqliteTable("staff_accounts", {
  staffId: text("staff_id").primaryKey(),
  username: text("username").notNull().unique(),
  /** agent | senior_agent | supervisor | admin */
  role: text("role").notNull(),
  passwordHash: text("password_hash").notNull(),
  /** The TOTP secret sealed with the field key (base64), its nonce and key version. */
  totpCiphertext: text("totp_ciphertext").notNull(),
  totpNonce: text("totp_nonce").notNull(),
  totpKeyVersion: integer("totp_key_version").notNull(),
  /** The last RFC 6238 time step accepted: a code is never accepted twice. */
  totpLastStep: integer("totp_last_step").notNull().default(0),
  failedLogins: integer("failed_logins").notNull().default(0),
  lockedUntil: integer("locked_until"),
  disabledAt: integer("disabled_at"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const staffSessions = sqliteTable(
  "staff_sessions",
  {
    /** SHA-256 (hex) of the cookie's token: the token itself is never stored. */
    sessionHash: text("session_hash").primaryKey(),
    staffId: text("staff_id").notNull(),
    csrfHash: text("csrf_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    endedAt: integer("ended_at"),
    remote: text("remote").notNull(),
  },
  (t) => [index("staff_sessions_staff").on(t.staffId)],
);

export const staffAudit = sqliteTable(
  "staff_audit",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    staffId: text("staff_id").notNull(),
    username: text("username").notNull(),
    role: text("role").notNull(),
    remote: text("remote").notNull(),
    action: text("action").notNull(),
    outcome: text("outcome").notNull(),
    orderId: text("order_id"),
    documentRef: text("document_ref"),
    reasonCategory: text("reason_category"),
    reason: text("reason"),
    detail: text("detail"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull().unique(),
  },
  (t) => [index("staff_audit_order").on(t.orderId), index("staff_audit_action").on(t.action)],
);

/** Who holds a work item of a queue (reconcile_failed), and since when. */
export const staffQueueClaims = sqliteTable(
  "staff_queue_claims",
  {
    queue: text("queue").notNull(),
    itemId: text("item_id").notNull(),
    staffId: text("staff_id").notNull(),
    username: text("username").notNull(),
    takenAt: integer("taken_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.queue, t.itemId] })],
);
