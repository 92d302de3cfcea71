import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The keys an agency signs with (schemas/migrations/0046_signing_agreements.sql). */
export const agencySigningKeys = sqliteTable(
  "agency_signing_keys",
  {
    agencyId: text("agency_id").notNull(),
    fingerprint: text("fingerprint").notNull(),
    kind: text("kind").notNull(),
    algorithm: text("algorithm").notNull(),
    pem: text("pem").notNull(),
    subject: text("subject"),
    notBefore: integer("not_before"),
    notAfter: integer("not_after"),
    addedAt: integer("added_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [primaryKey({ columns: [t.agencyId, t.fingerprint] })],
);

/** Verified signed requests, append-only and hash-chained (schemas/migrations/0047_signature_evidence.sql). */
export const signatureEvidence = sqliteTable(
  "signature_evidence",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    orderId: text("order_id").notNull(),
    message: text("message").notNull(),
    form: text("form").notNull(),
    agencyId: text("agency_id").notNull(),
    clientId: text("client_id").notNull(),
    fingerprint: text("fingerprint").notNull(),
    signatureMethod: text("signature_method").notNull(),
    canonicalization: text("canonicalization").notNull(),
    referenceUri: text("reference_uri").notNull(),
    originalSha256: text("original_sha256").notNull(),
    verifiedAt: integer("verified_at").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull().unique(),
  },
  (t) => [index("signature_evidence_order").on(t.orderId)],
);
