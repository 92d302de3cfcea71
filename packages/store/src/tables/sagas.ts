import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Sagas and request idempotency (schemas/migrations/0009_sagas_idempotency.sql, 0012_request_idempotency_owner.sql). */

export const sagas = sqliteTable(
  "sagas",
  {
    sagaId: text("saga_id").primaryKey(),
    /** order_create | payment_retry */
    kind: text("kind").notNull(),
    orderId: text("order_id").notNull(),
    ownerClientId: text("owner_client_id").notNull(),
    ownerAgencyId: text("owner_agency_id").notNull(),
    step: text("step").notNull(),
    /** running | done | compensated */
    status: text("status").notNull(),
    /** JSON; the saga kind owns its shape. */
    plan: text("plan").notNull(),
    errorCode: text("error_code"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("sagas_open").on(t.updatedAt).where(sql`status = 'running'`), index("sagas_order").on(t.orderId)],
);

export const requestIdempotency = sqliteTable(
  "request_idempotency",
  {
    clientId: text("client_id").notNull(),
    correlationId: text("correlation_id").notNull(),
    trxId: text("trx_id").notNull(),
    fingerprint: text("fingerprint").notNull(),
    /** in_flight | done */
    state: text("state").notNull(),
    responseStatus: integer("response_status"),
    /** base64 of the exact response bytes. */
    responseBody: text("response_body"),
    lockedAt: integer("locked_at"),
    /** Instance id of the process holding it in flight (0012); null once answered. */
    owner: text("owner"),
    createdAt: integer("created_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.correlationId, t.trxId] })],
);
