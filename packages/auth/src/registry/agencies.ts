import { asc, eq } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import * as tables from "../tables";
import type { Agency } from "../types";
import { RegistryError } from "./errors";

/**
 * Agency ids start with a letter and IATA numbers are eight digits, so a reference that is
 * eight digits is always an IATA number: "IATA number or agency id" is never ambiguous.
 */
const AGENCY_ID = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
const IATA_NUMBER = /^\d{8}$/;

type AgencyRow = typeof tables.agencies.$inferSelect;

export function toAgency(r: AgencyRow): Agency {
  const policy = r.signingPolicy === "optional" || r.signingPolicy === "required" ? r.signingPolicy : "none";
  return { agencyId: r.agencyId, iataNumber: r.iataNumber, name: r.name, active: r.active, signing: { policy, airlineSigns: r.airlineSigns } };
}

/** Finds an agency by IATA number or agency id. */
export async function findAgency(db: StoreDb, ref: string): Promise<Agency | undefined> {
  const col = IATA_NUMBER.test(ref) ? tables.agencies.iataNumber : tables.agencies.agencyId;
  const rows = await db.select().from(tables.agencies).where(eq(col, ref)).limit(1);
  return rows[0] ? toAgency(rows[0]) : undefined;
}

export async function requireAgency(db: StoreDb, ref: string, opts: { active?: boolean } = {}): Promise<Agency> {
  const a = await findAgency(db, ref);
  if (!a) throw new RegistryError("unknown_agency", `No agency "${ref.slice(0, 64)}" is registered (give its agency id or IATA number).`);
  if (opts.active && !a.active) throw new RegistryError("agency_inactive", `Agency ${a.agencyId} is not active.`);
  return a;
}

export async function registerAgency(
  store: Store,
  input: { agencyId: string; iataNumber: string; name: string },
  now = Date.now(),
  alsoInTransaction?: (tx: StoreDb) => Promise<void>,
): Promise<Agency> {
  const agencyId = input.agencyId.trim();
  const iataNumber = input.iataNumber.trim();
  const name = input.name.trim();
  if (!AGENCY_ID.test(agencyId)) {
    throw new RegistryError("invalid_argument", "The agency id must start with a letter and hold at most 64 letters, digits, '.', '_' or '-'.");
  }
  if (!IATA_NUMBER.test(iataNumber)) throw new RegistryError("invalid_argument", "The IATA number must be eight digits.");
  if (!name || name.length > 200) throw new RegistryError("invalid_argument", "The agency name must be 1 to 200 characters.");
  return store.write(async (tx) => {
    if (await findAgency(tx, agencyId)) throw new RegistryError("agency_exists", `Agency ${agencyId} is already registered.`);
    if (await findAgency(tx, iataNumber)) {
      throw new RegistryError("agency_exists", `IATA number ${iataNumber} is already registered to another agency.`);
    }
    await tx.insert(tables.agencies).values({ agencyId, iataNumber, name, active: true, createdAt: now });
    await alsoInTransaction?.(tx);
    return { agencyId, iataNumber, name, active: true };
  });
}

/**
 * Deactivating an agency refuses its clients' tokens on their next call (spec 2.1).
 * `alsoInTransaction` writes the record of the change (the staff audit row) in its transaction.
 */
export async function setAgencyActive(store: Store, ref: string, active: boolean, alsoInTransaction?: (tx: StoreDb, agencyId: string) => Promise<void>): Promise<Agency> {
  return store.write(async (tx) => {
    const a = await requireAgency(tx, ref);
    await tx.update(tables.agencies).set({ active }).where(eq(tables.agencies.agencyId, a.agencyId));
    await alsoInTransaction?.(tx, a.agencyId);
    return { ...a, active };
  });
}

export async function listAgencies(store: Store): Promise<Agency[]> {
  const rows = await store.db.select().from(tables.agencies).orderBy(asc(tables.agencies.agencyId));
  return rows.map(toAgency);
}
