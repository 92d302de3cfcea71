import { eq } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import * as tables from "../tables";
import { scopeSet } from "./scopes";

/**
 * Whether the client holds the scope now: registered, not suspended, its agency active, the
 * scope granted. Asked at each delivery of a granted event (accounting.sales_info needs
 * ndc:accounting), so a grant revoked after subscribing stops the deliveries (spec 5).
 */
export async function clientHoldsScope(db: StoreDb, clientId: string, scope: string): Promise<boolean> {
  const row = await db
    .select({ scopes: tables.clients.scopes, suspended: tables.clients.suspended, active: tables.agencies.active })
    .from(tables.clients)
    .innerJoin(tables.agencies, eq(tables.agencies.agencyId, tables.clients.agencyId))
    .where(eq(tables.clients.clientId, clientId))
    .get();
  return row !== undefined && !row.suspended && row.active && scopeSet(row.scopes).has(scope);
}

/** The dispatcher's grant check (DispatcherDeps.holdsGrant) over the seller registry of this store: `serve` and the scheduler process ask the same way. */
export function registryGrants(store: Store): (clientId: string, scope: string) => Promise<boolean> {
  return (clientId, scope) => clientHoldsScope(store.db, clientId, scope);
}
