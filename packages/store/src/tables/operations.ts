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
