/**
 * Shared by the SeatAvailability and ServiceList suites: a gateway on a fixed clock, flight
 * offers saved the way AirShopping stores them (the payload contract in offers/payload.ts), and
 * request bodies written the way sellers write them.
 */
import { ManualClock } from "@ndc/clock";
import { OfferRepository, type FlightOfferPayload, type OfferOwner } from "@ndc/shopping";
import { addDays, type Journey } from "@ndc/supply";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";

export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
/** A passport number no test data elsewhere uses, so finding it anywhere means it leaked. */
export const SECRET_DOC = "ZQ9X4471PASSPORT";
export const SECRET_SURNAME = "LEAKYSURNAME";

export async function gateway(): Promise<{ t: TestGateway; clock: ManualClock; owner: OfferOwner; repo: OfferRepository }> {
  const clock = new ManualClock(T0);
  const t = await startTestGateway({}, clock);
  const owner = { clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id };
  return { t, clock, owner, repo: new OfferRepository(t.gw.store, clock) };
}

export const day = (t: TestGateway, n: number): string => addDays(t.gw.supply.startDate, n);

export interface OfferSpec {
  offerId: string;
  journeys: Journey[];
  pax?: [string, string][];
  cabin?: string;
  currency?: string;
  owner?: OfferOwner;
  ttlMs?: number;
}

/** Saves a flight offer as AirShopping does; segment ids SEG-<flight key> as AirShopping issues them. */
export async function saveFlightOffer(repo: OfferRepository, clock: ManualClock, owner: OfferOwner, s: OfferSpec): Promise<FlightOfferPayload> {
  const payload: FlightOfferPayload = {
    kind: "flight",
    currency: s.currency ?? "EUR",
    language: "en",
    pax: (s.pax ?? [["PAX1", "ADT"]]).map(([paxId, ptc]) => ({ paxId, ptc })),
    journeys: s.journeys.map((j) => ({
      paxJourneyId: j.id,
      brandCode: s.cabin === "BUSINESS" ? "BUSINESS" : "CLASSIC",
      cabin: s.cabin ?? "ECONOMY",
      flightKeys: j.segments.map((f) => f.key),
      paxSegmentIds: j.segments.map((f) => `SEG-${f.key}`),
    })),
    items: [],
    totalMinor: 0,
  };
  await repo.save([{ offerId: s.offerId, source: "air_shopping", owner: s.owner ?? owner, createdAt: clock.now(), expiresAt: clock.now() + (s.ttlMs ?? 30 * 60_000), payload }]);
  return payload;
}

export interface RequestOpts {
  offerId?: string;
  ownerCode?: string;
  currency?: string;
  langUsage?: string[];
  primaryLang?: string;
  correlationId?: string;
  /** Adds a Pax with an IdentityDoc carrying SECRET_DOC. */
  identityDoc?: boolean;
  paxSegmentIds?: string[];
  /** OrderRequest instead of OfferRequest. */
  orderId?: string;
  /** Raw core request content (PaxSegmentRequest) and the DatedMarketingSegmentList before it. */
  rawCore?: string;
  datedSegments?: string;
  criteria?: { include?: boolean; rfic?: string; rfisc?: string[]; taxonomy?: string[] }[];
}

function langParams(o: RequestOpts): string {
  const cur = o.currency ? `<cns:CurParameter><cns:CurCode>${o.currency}</cns:CurCode></cns:CurParameter>` : "";
  const langs = (o.langUsage ?? []).map((l) => `<cns:LangUsage><cns:LangCode>${l}</cns:LangCode></cns:LangUsage>`).join("");
  return cur || langs ? `<cns:ResponseParameters>${cur}${langs}</cns:ResponseParameters>` : "";
}

const identityPax = (o: RequestOpts): string =>
  o.identityDoc
    ? `<cns:Pax><cns:IdentityDoc><cns:IdentityDocID>${SECRET_DOC}</cns:IdentityDocID><cns:IdentityDocTypeCode>PT</cns:IdentityDocTypeCode><cns:Surname>${SECRET_SURNAME}</cns:Surname></cns:IdentityDoc><cns:PaxID>PAX1</cns:PaxID><cns:PTC>ADT</cns:PTC></cns:Pax>`
    : "";

function core(o: RequestOpts): string {
  if (o.rawCore) return o.rawCore;
  if (o.orderId) return `<cns:OrderRequest><cns:Order><cns:OrderID>${o.orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order></cns:OrderRequest>`;
  const items = o.paxSegmentIds?.length
    ? `<cns:OfferItem><cns:OfferItemID>ANY</cns:OfferItemID>${o.paxSegmentIds.map((s) => `<cns:PaxSegmentRefID>${s}</cns:PaxSegmentRefID>`).join("")}</cns:OfferItem>`
    : "";
  return `<cns:OfferRequest><cns:Offer><cns:OfferID>${o.offerId}</cns:OfferID>${items}<cns:OwnerCode>${o.ownerCode ?? "XB"}</cns:OwnerCode></cns:Offer></cns:OfferRequest>`;
}

function withPrimaryLang(xml: string, lang: string | undefined, correlationId: string | undefined): string {
  if (!lang) return xml;
  // PrimaryLangID sits after CorrelationID in PayloadAttributes.
  const pa = `<PayloadAttributes>${correlationId ? `<cns:CorrelationID>${correlationId}</cns:CorrelationID>` : ""}<cns:PrimaryLangID>${lang}</cns:PrimaryLangID></PayloadAttributes>`;
  return xml.replace(/<PayloadAttributes>.*?<\/PayloadAttributes>/, "").replace("<Request>", `${pa}<Request>`);
}

export function seatAvailabilityRQ(o: RequestOpts): string {
  const request = `${o.datedSegments ?? ""}${identityPax(o)}${langParams(o)}<cns:SeatAvailCoreRequest>${core(o)}</cns:SeatAvailCoreRequest>`;
  return withPrimaryLang(ndcRequest("SeatAvailabilityRQ", { request, correlationId: o.correlationId }), o.primaryLang, o.correlationId);
}

function criterion(c: NonNullable<RequestOpts["criteria"]>[number]): string {
  const inc = c.include === false ? "<cns:IncludeInd>false</cns:IncludeInd>" : "";
  const rfic = c.rfic ? `<cns:RFIC>${c.rfic}</cns:RFIC>` : "";
  const rfisc = (c.rfisc ?? []).map((r) => `<cns:RFISC>${r}</cns:RFISC>`).join("");
  const tax = (c.taxonomy ?? []).map((x) => `<cns:TaxonomyCode>${x}</cns:TaxonomyCode>`).join("");
  return `<cns:ServiceCriteria>${inc}${rfic}${rfisc}${tax}</cns:ServiceCriteria>`;
}

export function serviceListRQ(o: RequestOpts): string {
  const crit = o.criteria?.length ? `<cns:OfferCriteria>${o.criteria.map(criterion).join("")}</cns:OfferCriteria>` : "";
  const request = `${crit}${identityPax(o)}${langParams(o)}<cns:ServiceListCoreRequest>${core(o)}</cns:ServiceListCoreRequest>`;
  return withPrimaryLang(ndcRequest("ServiceListRQ", { request, correlationId: o.correlationId }), o.primaryLang, o.correlationId);
}

/** Every text of an element, in document order. */
export function all(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:cns:)?${name}>([^<]*)</(?:cns:)?${name}>`, "g"))].map((m) => m[1]!);
}

/** Every element block (outer XML) of a name. */
export function blocks(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:cns:)?${name}>[\\s\\S]*?</(?:cns:)?${name}>`, "g"))].map((m) => m[0]);
}
