import { asc, eq, sql } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import * as tables from "../tables";
import { hashSecret, newClientId, newSecret } from "../secrets";
import { RegistryError } from "./errors";
import { requireAgency } from "./agencies";
import { checkScopes, scopeSet, scopeString } from "./scopes";

export type ClientRow = typeof tables.clients.$inferSelect;

/** A client as administrators see it: never its secret or hash. */
export interface ClientSummary {
  clientId: string;
  name: string | null;
  agencyId: string;
  scopes: string[];
  suspended: boolean;
  localOnly: boolean;
  secretGeneration: number;
  aggregatorAgencies: string[];
  createdAt: number;
}

/** Returned once, at registration or rotation: the only time the secret exists outside the caller. */
export interface IssuedSecret {
  clientId: string;
  clientSecret: string;
  secretGeneration: number;
}

export async function requireClient(db: StoreDb, clientId: string): Promise<ClientRow> {
  const rows = await db.select().from(tables.clients).where(eq(tables.clients.clientId, clientId)).limit(1);
  if (!rows[0]) throw new RegistryError("unknown_client", `No client "${clientId.slice(0, 64)}" is registered.`);
  return rows[0];
}

export async function registerClient(
  store: Store,
  input: { agency: string; scopes: string | readonly string[]; name?: string; clientId?: string; localOnly?: boolean },
  now = Date.now(),
  alsoInTransaction?: (tx: StoreDb, client: { clientId: string; agencyId: string }) => Promise<void>,
): Promise<IssuedSecret & { agencyId: string; scopes: string[] }> {
  const scopes = checkScopes(input.scopes);
  if (!scopes.length) throw new RegistryError("invalid_argument", "Give at least one scope.");
  const name = input.name?.trim() || null;
  if (name && name.length > 200) throw new RegistryError("invalid_argument", "The client name must be at most 200 characters.");
  const clientId = input.clientId ?? newClientId();
  const clientSecret = newSecret();
  // Hash outside the write transaction: argon2id takes tens of milliseconds.
  const secretHash = await hashSecret(clientSecret);
  const stored = scopeString(scopes);
  const agencyId = await store.write(async (tx) => {
    const agency = await requireAgency(tx, input.agency, { active: true });
    await tx.insert(tables.clients).values({
      clientId,
      name,
      secretHash,
      secretGeneration: 1,
      tokenEpoch: 1,
      scopes: stored,
      agencyId: agency.agencyId,
      suspended: false,
      localOnly: input.localOnly ?? false,
      createdAt: now,
      updatedAt: now,
    });
    await alsoInTransaction?.(tx, { clientId, agencyId: agency.agencyId });
    return agency.agencyId;
  });
  return { clientId, clientSecret, secretGeneration: 1, agencyId, scopes: stored.split(" ") };
}

/**
 * A new secret; the old one and every token issued under it stop working at once.
 * `alsoInTransaction` writes the record of it (the staff audit row, never the secret) with the new generation.
 */
export async function rotateSecret(store: Store, clientId: string, now = Date.now(), alsoInTransaction?: (tx: StoreDb, secretGeneration: number) => Promise<void>): Promise<IssuedSecret> {
  await requireClient(store.db, clientId);
  const clientSecret = newSecret();
  const secretHash = await hashSecret(clientSecret);
  const gen = await store.write(async (tx) => {
    await requireClient(tx, clientId);
    const rows = await tx
      .update(tables.clients)
      .set({
        secretHash,
        secretGeneration: sql`${tables.clients.secretGeneration} + 1`,
        tokenEpoch: sql`${tables.clients.tokenEpoch} + 1`,
        updatedAt: now,
      })
      .where(eq(tables.clients.clientId, clientId))
      .returning({ gen: tables.clients.secretGeneration });
    await alsoInTransaction?.(tx, rows[0]!.gen);
    return rows[0]!.gen;
  });
  return { clientId, clientSecret, secretGeneration: gen };
}

/**
 * Suspension refuses the client's tokens from the next call; a resumed client must fetch new ones.
 * `alsoInTransaction` writes the record of the change (the staff console's audit row) in its transaction.
 */
export async function suspendClient(store: Store, clientId: string, now = Date.now(), alsoInTransaction?: (tx: StoreDb) => Promise<void>): Promise<void> {
  await store.write(async (tx) => {
    await requireClient(tx, clientId);
    await tx
      .update(tables.clients)
      .set({ suspended: true, tokenEpoch: sql`${tables.clients.tokenEpoch} + 1`, updatedAt: now })
      .where(eq(tables.clients.clientId, clientId));
    await alsoInTransaction?.(tx);
  });
}

export async function resumeClient(store: Store, clientId: string, now = Date.now(), alsoInTransaction?: (tx: StoreDb) => Promise<void>): Promise<void> {
  await store.write(async (tx) => {
    await requireClient(tx, clientId);
    await tx.update(tables.clients).set({ suspended: false, updatedAt: now }).where(eq(tables.clients.clientId, clientId));
    await alsoInTransaction?.(tx);
  });
}

async function changeScopes(store: Store, clientId: string, scopes: readonly string[], add: boolean, now: number, alsoInTransaction?: (tx: StoreDb, scopes: string[]) => Promise<void>): Promise<string[]> {
  const names = checkScopes(scopes);
  if (!names.length) throw new RegistryError("invalid_argument", "Give at least one scope.");
  return store.write(async (tx) => {
    const row = await requireClient(tx, clientId);
    const set = scopeSet(row.scopes);
    for (const s of names) add ? set.add(s) : set.delete(s);
    const stored = scopeString(set);
    await tx.update(tables.clients).set({ scopes: stored, updatedAt: now }).where(eq(tables.clients.clientId, clientId));
    const after = stored ? stored.split(" ") : [];
    await alsoInTransaction?.(tx, after);
    return after;
  });
}

/** Granting widens what new tokens may ask for; revoking also narrows tokens already issued. */
export function grantScopes(store: Store, clientId: string, scopes: readonly string[], now = Date.now(), alsoInTransaction?: (tx: StoreDb, scopes: string[]) => Promise<void>): Promise<string[]> {
  return changeScopes(store, clientId, scopes, true, now, alsoInTransaction);
}

export function revokeScopes(store: Store, clientId: string, scopes: readonly string[], now = Date.now(), alsoInTransaction?: (tx: StoreDb, scopes: string[]) => Promise<void>): Promise<string[]> {
  return changeScopes(store, clientId, scopes, false, now, alsoInTransaction);
}

export async function listClients(store: Store): Promise<ClientSummary[]> {
  const rows = await store.db.select().from(tables.clients).orderBy(asc(tables.clients.clientId));
  const grants = await store.db.select().from(tables.aggregatorGrants).orderBy(asc(tables.aggregatorGrants.agencyId));
  return rows.map((r) => ({
    clientId: r.clientId,
    name: r.name,
    agencyId: r.agencyId,
    scopes: r.scopes.split(" ").filter(Boolean),
    suspended: r.suspended,
    localOnly: r.localOnly,
    secretGeneration: r.secretGeneration,
    aggregatorAgencies: grants.filter((g) => g.clientId === r.clientId).map((g) => g.agencyId),
    createdAt: r.createdAt,
  }));
}
