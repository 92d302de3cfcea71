import type { ChainLink } from "@ndc/xml";
import { GatewayError } from "@ndc/errors";
import type { Agency, Principal, Seller } from "../types";

/**
 * DistributionChain checks (spec 5.6): the Carrier link must name this airline; the Seller link
 * (if any) must name the caller's own agency or, for an ndc:aggregator client, an agency granted
 * to it. Agencies are named by IATA number or agency id.
 */
export function resolveSeller(principal: Principal, chain: readonly ChainLink[] | undefined, designator: string): Seller {
  const links = chain ?? [];
  if (!links.some((l) => l.role === "Carrier" && l.orgId.trim().toUpperCase() === designator.toUpperCase())) {
    throw new GatewayError("distribution_chain_invalid", {
      detail: `No Carrier link names this airline (${designator}).`,
      element: "DistributionChain",
    });
  }
  const sellers = links.filter((l) => l.role === "Seller");
  if (sellers.length > 1) {
    throw new GatewayError("distribution_chain_invalid", { detail: "The chain holds more than one Seller link.", element: "DistributionChain" });
  }
  const agency = sellers.length === 0 ? principal.agency : sellingAgency(principal, sellers[0]!.orgId.trim());
  if (!agency) {
    throw new GatewayError("seller_not_authorised", {
      detail: principal.scopes.has("ndc:aggregator")
        ? "The Seller link must name the caller's own agency or an agency granted to this aggregator."
        : "The Seller link must name the caller's own agency.",
      element: "DistributionChain",
    });
  }
  return { clientId: principal.clientId, agencyId: agency.agencyId, iataNumber: agency.iataNumber, scopes: principal.scopes, signing: agency.signing };
}

function names(a: Agency, orgId: string): boolean {
  return a.iataNumber === orgId || a.agencyId === orgId;
}

function sellingAgency(p: Principal, orgId: string): Agency | undefined {
  if (names(p.agency, orgId)) return p.agency;
  if (!p.scopes.has("ndc:aggregator")) return undefined;
  return p.aggregatorAgencies.find((a) => a.active && names(a, orgId));
}
