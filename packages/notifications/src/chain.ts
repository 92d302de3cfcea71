import { c, el, type XNode } from "@ndc/xml";

/** The DistributionChain of every pushed NDC message: the airline as Carrier (ordinal 1), the seller's agency as Seller (ordinal 2). */
export function notificationChain(carrier: string, sellerAgencyId: string): XNode {
  return el(
    "DistributionChain",
    null,
    c("DistributionChainLink", c("Ordinal", 1), c("OrgRole", "Carrier"), c("ParticipatingOrg", c("OrgID", carrier))),
    c("DistributionChainLink", c("Ordinal", 2), c("OrgRole", "Seller"), c("ParticipatingOrg", c("OrgID", sellerAgencyId))),
  );
}
