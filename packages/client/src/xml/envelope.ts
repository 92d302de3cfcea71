/**
 * The 24.4 request envelope: DistributionChain (the airline as Carrier; the seller's agency as
 * Seller when the caller sells for someone else), PayloadAttributes with a CorrelationID (and a
 * TrxID for messages that write), then Request, or Payload for OrderQuoteRQ whose schema names
 * it so and puts it before PayloadAttributes.
 */
export const MSG_NS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
export const CNS_NS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text and attribute values escaped: every value a caller gives goes through here. */
export function esc(v: string | number): string {
  return String(v).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** `<cns:Name>value</cns:Name>`, escaped; nothing when the value is undefined. */
export function el(name: string, value: string | number | undefined): string {
  return value === undefined ? "" : `<cns:${name}>${esc(value)}</cns:${name}>`;
}

export interface EnvelopeIds {
  /** The airline's designator (discovery `airline.designator`). */
  carrier: string;
  /** The agency sold for (IATA number or agency id); omitted, the caller sells as its own agency. */
  seller?: string;
  correlationId: string;
  trxId?: string;
}

export function envelope(message: string, ids: EnvelopeIds, request: string): string {
  const root = `IATA_${message}`;
  const link = (ordinal: number, role: string, org: string) =>
    `<cns:DistributionChainLink><cns:Ordinal>${ordinal}</cns:Ordinal><cns:OrgRole>${role}</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>${esc(org)}</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink>`;
  const chain = `<DistributionChain>${ids.seller ? link(1, "Seller", ids.seller) : ""}${link(ids.seller ? 2 : 1, "Carrier", ids.carrier)}</DistributionChain>`;
  const attrs = `<PayloadAttributes>${el("CorrelationID", ids.correlationId)}${el("TrxID", ids.trxId)}</PayloadAttributes>`;
  const body = message === "OrderQuoteRQ" ? `${chain}<Payload>${request}</Payload>${attrs}` : `${chain}${attrs}<Request>${request}</Request>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${MSG_NS}" xmlns:cns="${CNS_NS}">${body}</${root}>`;
}
