import { and, eq, inArray } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import * as tables from "../tables";
import { RegistryError } from "./errors";
import { requireAgency } from "./agencies";
import { requireClient } from "./clients";
import { scopeSet } from "./scopes";

/**
 * Lets an ndc:aggregator client sell as these agencies (spec 2.1, 5.6). Returns the agency ids granted.
 * `alsoInTransaction` writes the record of the change (the staff audit row) in its transaction; so for revoke.
 */
export async function grantAgencies(store: Store, clientId: string, refs: readonly string[], now = Date.now(), alsoInTransaction?: (tx: StoreDb, agencyIds: string[]) => Promise<void>): Promise<string[]> {
  if (!refs.length) throw new RegistryError("invalid_argument", "Give at least one agency.");
  return store.write(async (tx) => {
    const client = await requireClient(tx, clientId);
    if (!scopeSet(client.scopes).has("ndc:aggregator")) {
      throw new RegistryError("not_aggregator", `Client ${clientId} does not hold ndc:aggregator; grant that scope first.`);
    }
    const ids: string[] = [];
    for (const ref of refs) {
      const agency = await requireAgency(tx, ref, { active: true });
      await tx.insert(tables.aggregatorGrants).values({ clientId, agencyId: agency.agencyId, createdAt: now }).onConflictDoNothing();
      ids.push(agency.agencyId);
    }
    await alsoInTransaction?.(tx, ids);
    return ids;
  });
}

/** Takes effect on the client's next call: grants are read with every authentication. */
export async function revokeAgencies(store: Store, clientId: string, refs: readonly string[], alsoInTransaction?: (tx: StoreDb, agencyIds: string[]) => Promise<void>): Promise<string[]> {
  if (!refs.length) throw new RegistryError("invalid_argument", "Give at least one agency.");
  return store.write(async (tx) => {
    await requireClient(tx, clientId);
    const ids: string[] = [];
    for (const ref of refs) ids.push((await requireAgency(tx, ref)).agencyId);
    await tx
      .delete(tables.aggregatorGrants)
      .where(and(eq(tables.aggregatorGrants.clientId, clientId), inArray(tables.aggregatorGrants.agencyId, ids)));
    await alsoInTransaction?.(tx, ids);
    return ids;
  });
}
