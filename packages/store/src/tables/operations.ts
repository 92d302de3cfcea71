import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * One operation record (schemas/migrations/0015_operations.sql): a request's idempotency row
 * and the recovery record of the saga it starts, in one row (issue 8 §1).
 */
export const operations = sqliteTable(
  "operations",
  {
    operationId: text("operation_id").primaryKey(),
    /** order_create | payment_retry | ... (the saga's kind). */
    kind: text("kind").notNull(),
    clientId: text("client_id"),
    correlationId: text("correlation_id"),
    trxId: text("trx_id"),
    fingerprint: text("fingerprint").notNull(),
    orderId: text("order_id"),
    ownerClientId: text("owner_client_id"),
    ownerAgencyId: text("owner_agency_id"),
    phase: text("phase").notNull(),
    /** running | done | compensated | answered (a request answered before its work opened). */
    status: text("status").notNull(),
    /** JSON; the kind owns its shape. */
    plan: text("plan"),
    errorCode: text("error_code"),
    lockOwner: text("lock_owner"),
    lockedAt: integer("locked_at"),
    responseStatus: integer("response_status"),
    /** base64 of the exact response bytes. */
    responseBody: text("response_body"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [
    uniqueIndex("operations_request").on(t.clientId, t.correlationId, t.trxId, t.kind).where(sql`client_id IS NOT NULL`),
    index("operations_open").on(t.updatedAt).where(sql`status = 'running'`),
    index("operations_order").on(t.orderId),
  ],
);

/** Staff items for operations the reconciler cannot finish (schemas/migrations/0020_reconcile_failed.sql). */
export const reconcileFailures = sqliteTable(
  "reconcile_failures",
  {
    operationId: text("operation_id").primaryKey(),
    kind: text("kind").notNull(),
    orderId: text("order_id"),
    phase: text("phase").notNull(),
    attempts: integer("attempts").notNull(),
    lastError: text("last_error").notNull(),
    firstFailedAt: integer("first_failed_at").notNull(),
    lastFailedAt: integer("last_failed_at").notNull(),
    raisedAt: integer("raised_at"),
    /** retry, closed, captured or voided (migration 0055) */
    resolution: text("resolution"),
    resolvedBy: text("resolved_by"),
    resolvedAt: integer("resolved_at"),
    note: text("note"),
  },
  (t) => [index("reconcile_failures_open").on(t.raisedAt).where(sql`raised_at IS NOT NULL AND resolved_at IS NULL`)],
);
