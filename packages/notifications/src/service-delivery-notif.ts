import { el, serialize, NS, type XNode } from "@ndc/xml";
import { notificationChain } from "./chain";

/**
 * IATA_ServiceDeliveryNotifRQ (spec 4.9): DistributionChain, then Request/Order holding the
 * delivered items only. `order` is the Order element (DeliveredOrderType) as ServiceDeliveryRS
 * writes it (@ndc/messages encodeDeliveredOrder), built by the gateway, which owns the message
 * encoders; it names passengers by PaxRefID only and never carries an identity document.
 */
export function serviceDeliveryNotifRQ(n: { carrier: string; sellerAgencyId: string; order: XNode }): string {
  return serialize(el("IATA_ServiceDeliveryNotifRQ", { xmlns: NS.message, "xmlns:cns": NS.common }, notificationChain(n.carrier, n.sellerAgencyId), el("Request", null, n.order)));
}
