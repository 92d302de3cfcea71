import { and, asc, eq, isNull } from "drizzle-orm";
import { RegistryError, requireAgency, type Agency } from "@ndc/auth";
import type { Store, StoreDb } from "@ndc/store";
import { readSigningKey, KeyRefused, type SigningKeyInfo } from "./keys";
import { agencySigningKeys as K } from "./tables";

/**
 * Signing agreements (issue 11 item 1, docs/signatures.md): the keys an agency signs with and
 * its policy. Every change here is a registry change: the triggers of migration 0046 (keys) and
 * 0013 (the agencies row holding the policy) move registry_version in the same transaction, so
 * the caller cache drops its rows and the next call sees the change (decision 0008).
 */
export interface SigningKeyRow extends SigningKeyInfo {
  agencyId: string;
  addedAt: number;
  revokedAt?: number;
}

function rowOf(r: typeof K.$inferSelect): SigningKeyRow {
  return {
    agencyId: r.agencyId,
    fingerprint: r.fingerprint,
    kind: r.kind as SigningKeyRow["kind"],
    algorithm: r.algorithm as SigningKeyRow["algorithm"],
    pem: r.pem,
    ...(r.subject ? { subject: r.subject } : {}),
    ...(r.notBefore !== null ? { notBefore: r.notBefore } : {}),
    ...(r.notAfter !== null ? { notAfter: r.notAfter } : {}),
    addedAt: r.addedAt,
    ...(r.revokedAt !== null ? { revokedAt: r.revokedAt } : {}),
  };
}

/** `alsoInTransaction` runs in the change's own write (the staff console's audit row), so both commit or neither. */
export type AlsoInTransaction = (tx: StoreDb, row: SigningKeyRow) => Promise<void>;

/** Registers a PEM certificate or public key for an agency; `notAfter` may narrow its window. */
export async function addSigningKey(store: Store, agencyRef: string, pem: string, opts: { notBefore?: number; notAfter?: number } = {}, now = Date.now(), alsoInTransaction?: AlsoInTransaction): Promise<SigningKeyRow> {
  let info: SigningKeyInfo;
  try {
    info = readSigningKey(pem);
  } catch (e) {
    if (e instanceof KeyRefused) throw new RegistryError("invalid_argument", e.message);
    throw e;
  }
  const notBefore = Math.max(info.notBefore ?? -Infinity, opts.notBefore ?? -Infinity);
  const notAfter = Math.min(info.notAfter ?? Infinity, opts.notAfter ?? Infinity);
  if (Number.isFinite(notAfter) && notAfter <= now) throw new RegistryError("invalid_argument", "The key's validity window has already ended.");
  return store.write(async (tx) => {
    const agency = await requireAgency(tx, agencyRef);
    const existing = await tx.select().from(K).where(and(eq(K.agencyId, agency.agencyId), eq(K.fingerprint, info.fingerprint))).limit(1);
    if (existing[0]) throw new RegistryError("invalid_argument", `Key ${info.fingerprint} is already registered for agency ${agency.agencyId}.`);
    const row = {
      agencyId: agency.agencyId,
      fingerprint: info.fingerprint,
      kind: info.kind,
      algorithm: info.algorithm,
      pem: info.pem,
      subject: info.subject ?? null,
      notBefore: Number.isFinite(notBefore) ? notBefore : null,
      notAfter: Number.isFinite(notAfter) ? notAfter : null,
      addedAt: now,
      revokedAt: null,
    };
    await tx.insert(K).values(row);
    await alsoInTransaction?.(tx, rowOf(row));
    return rowOf(row);
  });
}

export async function listSigningKeys(store: Store, agencyRef: string): Promise<{ agency: Agency; keys: SigningKeyRow[] }> {
  const agency = await requireAgency(store.db, agencyRef);
  return { agency, keys: await signingKeysOf(store.db, agency.agencyId) };
}

/** Every key of the agency, revoked and expired ones included (the verifier says why one is refused). */
export async function signingKeysOf(db: StoreDb, agencyId: string): Promise<SigningKeyRow[]> {
  const rows = await db.select().from(K).where(eq(K.agencyId, agencyId)).orderBy(asc(K.addedAt));
  return rows.map(rowOf);
}

/** Revokes a key from the next call on. Revoked keys stay listed: evidence names them. */
export async function revokeSigningKey(store: Store, agencyRef: string, fingerprint: string, now = Date.now(), alsoInTransaction?: AlsoInTransaction): Promise<SigningKeyRow> {
  const fp = fingerprint.trim().toLowerCase().replace(/:/g, "");
  return store.write(async (tx) => {
    const agency = await requireAgency(tx, agencyRef);
    const rows = await tx.update(K).set({ revokedAt: now }).where(and(eq(K.agencyId, agency.agencyId), eq(K.fingerprint, fp), isNull(K.revokedAt))).returning();
    if (!rows[0]) throw new RegistryError("invalid_argument", `Agency ${agency.agencyId} has no active key ${fp.slice(0, 64)}.`);
    await alsoInTransaction?.(tx, rowOf(rows[0]));
    return rowOf(rows[0]);
  });
}
