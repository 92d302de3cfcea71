import { rootFormOf } from "@ndc/xml";

/** Request documents for tests, built the way a seller's system writes them. */
export const MSG_NS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
export const CNS_NS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes";

export interface EnvelopeOpts {
  carrier?: string;
  /** Seller OrgID; null omits the Seller link. */
  seller?: string | null;
  correlationId?: string;
  trxId?: string;
  request?: string;
  omitChain?: boolean;
  omitRequest?: boolean;
}

function link(ordinal: number, role: string, orgId: string): string {
  return `<cns:DistributionChainLink><cns:Ordinal>${ordinal}</cns:Ordinal><cns:OrgRole>${role}</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>${orgId}</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink>`;
}

export function ndcRequest(message: string, o: EnvelopeOpts = {}): string {
  const root = `IATA_${message}`;
  const chain = o.omitChain
    ? ""
    : `<DistributionChain>${o.seller === null || o.seller === undefined ? "" : link(1, "Seller", o.seller)}${link(2, "Carrier", o.carrier ?? "XB")}</DistributionChain>`;
  const pa =
    o.correlationId || o.trxId
      ? `<PayloadAttributes>${o.correlationId ? `<cns:CorrelationID>${o.correlationId}</cns:CorrelationID>` : ""}${o.trxId ? `<cns:TrxID>${o.trxId}</cns:TrxID>` : ""}</PayloadAttributes>`
      : "";
  // Each root in its own XSD's form: OrderQuoteRQ carries Payload, before PayloadAttributes.
  const content = rootFormOf(root)?.content ?? "Request";
  const req = o.omitRequest ? "" : `<${content}>${o.request ?? ""}</${content}>`;
  const parts = content === "Payload" ? [chain, req, pa] : [chain, pa, req];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${MSG_NS}" xmlns:cns="${CNS_NS}">${parts.join("")}</${root}>`;
}
