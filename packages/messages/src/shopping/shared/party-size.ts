import { GatewayError } from "@ndc/errors";
import { partyBreach } from "@ndc/supply";

/**
 * The airline's party-size rule (@ndc/supply partyBreach: at most 9 seated passengers, lap
 * infants no more than adults) on a decoded PaxList. `listPath` is the Pax elements' path
 * without index ("Request/DataLists/PaxList/Pax"); the error names the first passenger over the
 * limit with its 1-based index, like every other TagText. Shopping messages answer
 * shopping_criteria_invalid, order messages request_invalid.
 */
export function requirePartySize(pax: readonly { ptc?: string }[], listPath: string, code: "shopping_criteria_invalid" | "request_invalid"): void {
  const breach = partyBreach(pax.map((p) => p.ptc));
  if (breach) throw new GatewayError(code, { detail: breach.detail, element: `${listPath}[${breach.index + 1}]` });
}
