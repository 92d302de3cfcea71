import type { Scope } from "@ndc/auth";
import { NS, type ResponseRoot } from "@ndc/xml";

/**
 * The message catalogue (spec 4.3): every NDC message the gateway serves, the scope it needs,
 * the root of its paired response and the XSD that response validates against.
 * The scopes themselves are the seller registry's (@ndc/auth, spec 5.5); which message needs which
 * lives here and nowhere else.
 */
/** Rate-limit classes (spec 8): shopping messages are the most limited. */
export type RateClass = "shop" | "default";

export interface MessageSpec {
  /** Name in the path, e.g. AirShoppingRQ. */
  name: string;
  /** Root element of the request, e.g. IATA_AirShoppingRQ (also the IATA-Message-Name value). */
  requestRoot: string;
  requestNs: string;
  scope: Scope;
  response: ResponseRoot;
  /** XSD file (in ../shared/ndc-schemas/24.4) the paired response validates against. */
  responseXsd: string;
  rateClass: RateClass;
}

const ndc = (name: string, scope: Scope, responseRoot: string, rateClass: RateClass = "default"): MessageSpec => ({
  name,
  requestRoot: `IATA_${name}`,
  requestNs: NS.message,
  scope,
  response: { root: responseRoot, family: "ndc" },
  responseXsd: `${responseRoot}.xsd`,
  rateClass,
});

export const MESSAGES: readonly MessageSpec[] = [
  ndc("AirShoppingRQ", "ndc:shop", "IATA_AirShoppingRS", "shop"),
  ndc("OfferPriceRQ", "ndc:shop", "IATA_OfferPriceRS", "shop"),
  ndc("ServiceListRQ", "ndc:shop", "IATA_ServiceListRS"),
  ndc("SeatAvailabilityRQ", "ndc:shop", "IATA_SeatAvailabilityRS"),
  ndc("OrderRetrieveRQ", "ndc:order", "IATA_OrderViewRS"),
  ndc("OrderHistoryRQ", "ndc:order", "IATA_OrderHistoryRS"),
  ndc("OrderListRQ", "ndc:order", "IATA_OrderListRS"),
  ndc("OrderRulesRQ", "ndc:order", "IATA_OrderRulesRS"),
  { ...ndc("ServiceDeliveryRQ", "ndc:order", "IATA_ServiceDeliveryRS"), response: { root: "IATA_ServiceDeliveryRS", family: "ndc", chainRequired: true } },
  ndc("OrderCreateRQ", "ndc:order:write", "IATA_OrderViewRS"),
  ndc("OrderChangeRQ", "ndc:order:write", "IATA_OrderViewRS"),
  ndc("OrderReshopRQ", "ndc:order:write", "IATA_OrderReshopRS"),
  // 24.4 has no OrderQuoteRS: a firm quote is answered as a re-quoted offer (decision 0013).
  ndc("OrderQuoteRQ", "ndc:order:write", "IATA_OrderReshopRS"),
  {
    name: "PaymentClearanceRQ",
    requestRoot: "IATA_PaymentClearanceRQ",
    requestNs: NS.clearanceRQ,
    scope: "ndc:settle",
    response: { root: "IATA_PaymentClearanceRS", family: "clearance" },
    responseXsd: "IATA_PaymentClearanceRS.xsd",
    rateClass: "default",
  },
];

/**
 * Spec 4.3, 5.5: "payment functions on orders" need ndc:payment besides the message's own scope.
 * These messages may carry Request/PaymentFunctions; carrying it asks for that scope too.
 */
export const PAYMENT_SCOPE: Scope = "ndc:payment";
const PAYING_MESSAGES: ReadonlySet<string> = new Set(["OrderCreateRQ", "OrderChangeRQ"]);

export function mayCarryPayment(spec: MessageSpec): boolean {
  return PAYING_MESSAGES.has(spec.name);
}

const BY_NAME = new Map(MESSAGES.map((m) => [m.name, m]));

export function messageByName(name: string): MessageSpec | undefined {
  return BY_NAME.get(name);
}
