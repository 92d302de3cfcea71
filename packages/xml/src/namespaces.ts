/** Namespaces of the NDC 24.4 messages (see ../shared/ndc-schemas/README.md). */
export const NS = {
  /** Root elements and their direct children (DistributionChain, PayloadAttributes, Request, Response, Error). */
  message: "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage",
  /** Everything below those children. */
  common: "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes",
  commonFullyOptional: "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypesFullyOptional",
  clearanceRQ: "http://www.iata.org/IATA/2015/00/2022.1/IATA_PaymentClearanceRQ",
  clearanceRS: "http://www.iata.org/IATA/2015/00/2022.1/IATA_PaymentClearanceRS",
  clearanceNotif: "http://www.iata.org/IATA/2015/00/2022.1/IATA_PaymentClearanceNotif",
  clearanceCommon: "http://www.iata.org/IATA/2015/00/2022.1/IATA_PaymentClearanceCommonTypes",
  dsig: "http://www.w3.org/2000/09/xmldsig#",
  /** Ours: the simulated-supply flag inside AugmentationPoint (docs/simulated-supply.md). */
  gateway: "urn:x-ndc-gateway:simulation:1",
} as const;

/** Namespaces whose elements the gateway reads as NDC content. Anything else is foreign and skipped. */
export const NDC_CONTENT_NAMESPACES: ReadonlySet<string> = new Set([
  NS.message,
  NS.common,
  NS.commonFullyOptional,
  NS.clearanceRQ,
  NS.clearanceCommon,
]);
