import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// The payment ledger (schemas/migrations/0006_payments.sql). Amounts are integer minor units.

export const paymentLegs = sqliteTable(
  "payment_legs",
  {
    legId: text("leg_id").primaryKey(),
    orderId: text("order_id").notNull(),
    changeRef: text("change_ref").notNull(),
    seq: integer("seq").notNull(),
    kind: text("kind").notNull(),
    state: text("state").notNull(),
    currency: text("currency").notNull(),
    authorised: integer("authorised").notNull().default(0),
    captured: integer("captured").notNull().default(0),
    refunded: integer("refunded").notNull().default(0),
    requested: integer("requested").notNull(),
    authoriseKey: text("authorise_key").notNull().unique(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    pspReference: text("psp_reference"),
    voucherCode: text("voucher_code"),
    settlementAccountId: text("settlement_account_id"),
    settlementMethod: text("settlement_method"),
    memberAccount: text("member_account"),
    certificateId: text("certificate_id"),
    points: integer("points"),
    pointsCaptured: integer("points_captured").notNull().default(0),
    pointsRefunded: integer("points_refunded").notNull().default(0),
    declineCode: text("decline_code"),
    /** The PSP's reason for a declined card (migration 0011). */
    declineReason: text("decline_reason"),
    createdAt: integer("created_at").notNull(),
    endedAt: integer("ended_at"),
  },
  (t) => [index("payment_legs_order").on(t.orderId, t.seq), index("payment_legs_state").on(t.state)],
);

/** Append-only, hash-chained (UPDATE and DELETE are refused by triggers). */
export const paymentLedgerEntries = sqliteTable(
  "payment_ledger_entries",
  {
    seq: integer("seq").primaryKey(),
    orderId: text("order_id").notNull(),
    legId: text("leg_id").notNull(),
    type: text("type").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    points: integer("points").notNull().default(0),
    idempotencyKey: text("idempotency_key").notNull(),
    at: integer("at").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull().unique(),
  },
  (t) => [index("payment_ledger_entries_leg").on(t.legId)],
);

export const paymentIdempotency = sqliteTable("payment_idempotency", {
  idempotencyKey: text("idempotency_key").primaryKey(),
  operation: text("operation").notNull(),
  fingerprint: text("fingerprint").notNull(),
  state: text("state").notNull(),
  response: text("response"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const vouchers = sqliteTable("vouchers", {
  code: text("code").primaryKey(),
  currency: text("currency").notNull(),
  balance: integer("balance").notNull(),
  pending: integer("pending").notNull().default(0),
  active: integer("active").notNull().default(1),
  expiresAt: integer("expires_at").notNull(),
});

export const loyaltyAccounts = sqliteTable("loyalty_accounts", {
  memberAccount: text("member_account").primaryKey(),
  programme: text("programme").notNull(),
  points: integer("points").notNull(),
  pending: integer("pending").notNull().default(0),
});

export const loyaltyCertificates = sqliteTable("loyalty_certificates", {
  certificateId: text("certificate_id").primaryKey(),
  memberAccount: text("member_account").notNull(),
  points: integer("points").notNull(),
  expiresAt: integer("expires_at").notNull(),
  state: text("state").notNull(),
  legId: text("leg_id"),
  issuedAt: integer("issued_at").notNull(),
});

export const settlementAccounts = sqliteTable(
  "settlement_accounts",
  {
    accountId: text("account_id").primaryKey(),
    agencyId: text("agency_id").notNull(),
    method: text("method").notNull(),
    currency: text("currency").notNull(),
    creditLimit: integer("credit_limit").notNull(),
    used: integer("used").notNull().default(0),
    pending: integer("pending").notNull().default(0),
    active: integer("active").notNull().default(1),
  },
  (t) => [index("settlement_accounts_agency").on(t.agencyId)],
);

/** The simulated PSP's own books (an outside system that outlives a gateway crash). */
export const pspSimRequests = sqliteTable("psp_sim_requests", {
  idempotencyKey: text("idempotency_key").primaryKey(),
  operation: text("operation").notNull(),
  response: text("response").notNull(),
});

export const pspSimPayments = sqliteTable("psp_sim_payments", {
  pspReference: text("psp_reference").primaryKey(),
  state: text("state").notNull(),
  currency: text("currency").notNull(),
  authorised: integer("authorised").notNull(),
  captured: integer("captured").notNull().default(0),
  refunded: integer("refunded").notNull().default(0),
});
