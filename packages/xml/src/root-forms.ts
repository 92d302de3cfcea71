/**
 * The root of each request message as its own 24.4 XSD declares it: which children, in which
 * order, which are required, and which one carries the message content. The roots differ:
 * IATA_OrderQuoteRQ carries `Payload` (not `Request`) and puts it before PayloadAttributes,
 * IATA_ServiceDeliveryRQ has no POS, and OrderCreateRQ and OrderChangeRQ end with a Signature. Reading every root as
 * "DistributionChain, PayloadAttributes, POS, Request" refused schema-valid documents, so each
 * served root is read by its own form (docs/decisions/0012-root-forms.md).
 * test/transport/xsd-forms.test.ts compares every form with its XSD, so the table cannot drift.
 */
export interface RootChild {
  name: string;
  required: boolean;
  /** Elements of xmldsig's namespace (ds:Signature) as well as the message's. */
  dsig?: boolean;
  /** maxOccurs unbounded: may follow itself (none of the NDC roots today; 2022.1's Clearance does). */
  repeats?: boolean;
}

export interface RootForm {
  /** Children in the XSD's sequence order. */
  children: readonly RootChild[];
  /** The child that carries the message content, handed to the message's handler. */
  content: string;
}

const opt = (name: string): RootChild => ({ name, required: false });
const req = (name: string): RootChild => ({ name, required: true });

/** The 24.4 request root shared by most messages: AugmentationPoint, DistributionChain, PayloadAttributes, POS, Request. */
const REQUEST_FORM: RootForm = {
  children: [opt("AugmentationPoint"), req("DistributionChain"), opt("PayloadAttributes"), opt("POS"), req("Request")],
  content: "Request",
};

/** OrderCreateRQ and OrderChangeRQ: the same, then an optional enveloped Signature. */
const SIGNED_REQUEST_FORM: RootForm = {
  children: [...REQUEST_FORM.children, { name: "Signature", required: false, dsig: true }],
  content: "Request",
};

export const ROOT_FORMS: Readonly<Record<string, RootForm>> = {
  IATA_AirShoppingRQ: REQUEST_FORM,
  IATA_OfferPriceRQ: REQUEST_FORM,
  IATA_ServiceListRQ: REQUEST_FORM,
  IATA_SeatAvailabilityRQ: REQUEST_FORM,
  IATA_OrderRetrieveRQ: REQUEST_FORM,
  IATA_OrderHistoryRQ: REQUEST_FORM,
  IATA_OrderListRQ: REQUEST_FORM,
  IATA_OrderRulesRQ: REQUEST_FORM,
  IATA_OrderReshopRQ: REQUEST_FORM,
  IATA_OrderCreateRQ: SIGNED_REQUEST_FORM,
  IATA_OrderChangeRQ: SIGNED_REQUEST_FORM,
  IATA_ServiceDeliveryRQ: {
    children: [opt("AugmentationPoint"), req("DistributionChain"), opt("PayloadAttributes"), req("Request")],
    content: "Request",
  },
  IATA_OrderQuoteRQ: {
    children: [opt("AugmentationPoint"), req("DistributionChain"), req("Payload"), opt("PayloadAttributes"), opt("POS")],
    content: "Payload",
  },
  IATA_PaymentClearanceRQ: {
    children: [{ name: "Clearance", required: true, repeats: true }, req("ClearanceCount"), opt("PayloadStandardAttributes")],
    content: "Clearance",
  },
};

/**
 * IATA_PaymentClearanceRQ (2022.1) is its own family: Clearance+, ClearanceCount and
 * PayloadStandardAttributes, no DistributionChain and no Request. Its seller is the token's agency
 * (apps/gateway/src/ndc/pipeline.ts); its content, Clearance, is read by @ndc/messages' clearance decoder.
 */
export function rootFormOf(rootName: string): RootForm | undefined {
  return ROOT_FORMS[rootName];
}
