import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Store } from "@ndc/store";
import * as tables from "../tables";

const KEY_ID = "access-token-hmac-1";
/** Sealed form: aesgcm1.<field key version>.<nonce>.<ciphertext+tag>, base64url parts. */
const SEALED = "aesgcm1";
// Binds the ciphertext to this row: a sealed value copied into another column does not open.
const AAD = Buffer.from(`token_signing_keys/${KEY_ID}`);

/** The field-encryption key (packages/pii loads it): the signing key is sealed under it. */
export interface SealingKey {
  key: Uint8Array;
  version: number;
}

/**
 * The token signing key: 256 random bits, created once in the store (insert-or-ignore, so two
 * processes starting together agree on one) and read by every gateway on this database, so
 * tokens survive restarts and any gateway honours them. The database holds it only sealed with
 * AES-256-GCM under the field key: a copy of the database (or a local user reading the file)
 * cannot mint tokens.
 *
 * A database from an earlier version holds the key in clear: it is sealed in place, the same key
 * material, so tokens issued before the upgrade stay valid. A sealed key that the configured field
 * key cannot open (the field key was replaced) is replaced by a new one: tokens live 30 minutes,
 * so callers only fetch new ones.
 */
export async function loadSigningKey(store: Store, sealing: SealingKey, now = Date.now()): Promise<Uint8Array> {
  return (await loadSealedSigningKey(store, sealing, now)).key;
}

/** The signing key with the sealed text it was opened from (what CurrentSigningKey compares to see a replacement). */
export interface OpenedSigningKey {
  key: Uint8Array;
  sealed: string;
}

/** loadSigningKey, also answering the sealed text it opened. */
export async function loadSealedSigningKey(store: Store, sealing: SealingKey, now = Date.now()): Promise<OpenedSigningKey> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await read(store);
    if (!row) {
      await store.write(async (tx) => {
        await tx
          .insert(tables.tokenSigningKeys)
          .values({ keyId: KEY_ID, secret: seal(randomBytes(32), sealing), createdAt: now })
          .onConflictDoNothing();
      });
      continue;
    }
    if (!row.secret.startsWith(`${SEALED}.`)) {
      await replace(store, row.secret, seal(Buffer.from(row.secret, "base64url"), sealing));
      continue;
    }
    const key = open(row.secret, sealing);
    if (key) return { key, sealed: row.secret };
    await replace(store, row.secret, seal(randomBytes(32), sealing));
  }
  throw new Error("token signing key could not be created");
}

/**
 * The stored key as it is now, if this field key opens it; undefined if it cannot (absent, or
 * sealed under another field key: a process configured with another key replaced it).
 */
export async function readSigningKey(store: Store, sealing: SealingKey): Promise<OpenedSigningKey | undefined> {
  const row = await read(store);
  if (!row?.secret.startsWith(`${SEALED}.`)) return undefined;
  const key = open(row.secret, sealing);
  return key ? { key, sealed: row.secret } : undefined;
}

/**
 * Replaces the key with 256 new random bits (`ndc-gateway client rotate-token-key`): every token
 * signed so far fails its signature check in every process from its next call, because the
 * registry's change counter moves with the row (migration 0066) and each process re-reads it.
 */
export async function rotateSigningKey(store: Store, sealing: SealingKey, now = Date.now()): Promise<void> {
  const secret = seal(randomBytes(32), sealing);
  await store.write(async (tx) => {
    await tx
      .insert(tables.tokenSigningKeys)
      .values({ keyId: KEY_ID, secret, createdAt: now })
      .onConflictDoUpdate({ target: tables.tokenSigningKeys.keyId, set: { secret, createdAt: now } });
  });
}

async function read(store: Store) {
  return (await store.db.select().from(tables.tokenSigningKeys).where(eq(tables.tokenSigningKeys.keyId, KEY_ID)).limit(1))[0];
}

/** Only if the row still holds what was read: another process may have sealed or replaced it first. */
async function replace(store: Store, was: string, sealed: string): Promise<void> {
  await store.write(async (tx) => {
    await tx
      .update(tables.tokenSigningKeys)
      .set({ secret: sealed })
      .where(and(eq(tables.tokenSigningKeys.keyId, KEY_ID), eq(tables.tokenSigningKeys.secret, was)));
  });
}

function seal(key: Uint8Array, sealing: SealingKey): string {
  const nonce = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", sealing.key, nonce);
  c.setAAD(AAD);
  const body = Buffer.concat([c.update(key), c.final(), c.getAuthTag()]);
  return [SEALED, String(sealing.version), nonce.toString("base64url"), body.toString("base64url")].join(".");
}

function open(sealed: string, sealing: SealingKey): Uint8Array | undefined {
  const [, , nonce, body] = sealed.split(".");
  if (!nonce || !body) return undefined;
  try {
    const raw = Buffer.from(body, "base64url");
    const d = createDecipheriv("aes-256-gcm", sealing.key, Buffer.from(nonce, "base64url"));
    d.setAAD(AAD);
    d.setAuthTag(raw.subarray(raw.length - 16));
    const key = Buffer.concat([d.update(raw.subarray(0, raw.length - 16)), d.final()]);
    return key.length === 32 ? new Uint8Array(key) : undefined;
  } catch {
    return undefined;
  }
}
