import { eq } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import * as tables from "../tables";
import type { Agency, SigningTerms } from "../types";
import { requireAgency } from "./agencies";
import { RegistryError } from "./errors";

export const SIGNING_POLICIES: readonly SigningTerms["policy"][] = ["none", "optional", "required"];

/**
 * Sets an agency's signing policy and, when given, whether the airline signs its OrderViewRS
 * answers (docs/signatures.md). On the agencies row, so the caller cache carries it and the
 * update trigger of migration 0013 makes the next call see it (decision 0008).
 */
export async function setSigningPolicy(store: Store, agencyRef: string, policy: string, airlineSigns?: boolean, alsoInTransaction?: (tx: StoreDb, agency: Agency) => Promise<void>): Promise<Agency> {
  if (!SIGNING_POLICIES.includes(policy as SigningTerms["policy"])) throw new RegistryError("invalid_argument", "The policy must be none, optional or required.");
  return store.write(async (tx) => {
    const agency = await requireAgency(tx, agencyRef);
    await tx
      .update(tables.agencies)
      .set({ signingPolicy: policy, ...(airlineSigns === undefined ? {} : { airlineSigns }) })
      .where(eq(tables.agencies.agencyId, agency.agencyId));
    const after: Agency = { ...agency, signing: { policy: policy as SigningTerms["policy"], airlineSigns: airlineSigns ?? agency.signing?.airlineSigns ?? false } };
    // In the same write (the staff console's audit row): both commit or neither.
    await alsoInTransaction?.(tx, after);
    return after;
  });
}
