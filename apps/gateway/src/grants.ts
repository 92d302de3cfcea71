import { clientHoldsScope } from "@ndc/auth";
import type { Store } from "@ndc/store";

/** The dispatcher's grant check (DispatcherDeps.holdsGrant) over the seller registry of this store: `serve` and the scheduler process ask the same way. */
export function registryGrants(store: Store): (clientId: string, scope: string) => Promise<boolean> {
  return (clientId, scope) => clientHoldsScope(store.db, clientId, scope);
}
