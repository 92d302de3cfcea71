import { findAgency } from "@ndc/auth";
import type { Store } from "@ndc/store";
import type { AirlineKey } from "./airline-key";
import { airlineSign } from "./sign";

/**
 * The dispatcher's `signBody`: pushed notifications carry the airline's signature when the
 * subscribing agency's agreement asks (`agency signing policy ... --airline-signs yes`), read at
 * each attempt so a change applies to the next push.
 */
export function notificationSigner(store: Store, airlineKey: () => AirlineKey | undefined): (agencyId: string, body: string) => Promise<string> {
  return async (agencyId, body) => {
    const agency = await findAgency(store.db, agencyId);
    const key = agency?.signing?.airlineSigns ? airlineKey() : undefined;
    return key ? airlineSign(body, key) : body;
  };
}
