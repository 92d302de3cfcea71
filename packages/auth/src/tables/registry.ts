import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Seller registry tables (schemas/migrations/0002_registry.sql). */

export const agencies = sqliteTable("agencies", {
  agencyId: text("agency_id").primaryKey(),
  iataNumber: text("iata_number").notNull().unique(),
  name: text("name").notNull(),
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  createdAt: integer("created_at").notNull(),
  /** none | optional | required (migration 0046, docs/signatures.md). */
  signingPolicy: text("signing_policy").notNull().default("none"),
  /** The airline signs this agency's OrderViewRS answers. */
  airlineSigns: integer("airline_signs", { mode: "boolean" }).notNull().default(false),
});

export const clients = sqliteTable("clients", {
  clientId: text("client_id").primaryKey(),
  name: text("name"),
  secretHash: text("secret_hash").notNull(),
  secretGeneration: integer("secret_generation").notNull().default(1),
  tokenEpoch: integer("token_epoch").notNull().default(1),
  scopes: text("scopes").notNull().default(""),
  agencyId: text("agency_id")
    .notNull()
    .references(() => agencies.agencyId),
  suspended: integer("suspended", { mode: "boolean" }).notNull().default(false),
  localOnly: integer("local_only", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const aggregatorGrants = sqliteTable(
  "aggregator_grants",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => clients.clientId),
    agencyId: text("agency_id")
      .notNull()
      .references(() => agencies.agencyId),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.agencyId] })],
);

export const apiKeys = sqliteTable("api_keys", {
  keyId: text("key_id").primaryKey(),
  keyHash: text("key_hash").notNull().unique(),
  clientId: text("client_id")
    .notNull()
    .references(() => clients.clientId),
  localOnly: integer("local_only", { mode: "boolean" }).notNull().default(true),
  revoked: integer("revoked", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
});

export const tokenSigningKeys = sqliteTable("token_signing_keys", {
  keyId: text("key_id").primaryKey(),
  secret: text("secret").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * One row, moved by triggers on every change to the tables above
 * (schemas/migrations/0013_registry_version.sql): what cached registry rows are checked against.
 */
export const registryVersion = sqliteTable("registry_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
});
