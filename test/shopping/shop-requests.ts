/** AirShoppingRQ / OfferPriceRQ bodies for the shopping tests, written the way sellers write them. */
import { ndcRequest } from "../support/requests";

export interface Leg {
  from: string;
  to: string;
  date: string;
  cabin?: string;
  cabinPref?: "Required" | "Preferred" | "Exclude";
}

export interface ShopOpts {
  legs: Leg[];
  pax?: [string, string][];
  currency?: string;
  langUsage?: string[];
  primaryLang?: string;
  criteria?: { include?: boolean; rfic?: string; rfisc?: string[]; taxonomy?: string[] }[];
  correlationId?: string;
  seller?: string;
}

function leg(l: Leg, i: number): string {
  const cabin = l.cabin
    ? `<cns:CabinType><cns:CabinTypeCode>${l.cabin}</cns:CabinTypeCode><cns:PrefLevel><cns:PrefLevelCode>${l.cabinPref ?? "Required"}</cns:PrefLevelCode></cns:PrefLevel></cns:CabinType>`
    : "";
  return `<cns:OriginDestCriteria>${cabin}<cns:DestArrivalCriteria><cns:IATA_LocationCode>${l.to}</cns:IATA_LocationCode></cns:DestArrivalCriteria><cns:OriginDepCriteria><cns:Date>${l.date}</cns:Date><cns:IATA_LocationCode>${l.from}</cns:IATA_LocationCode></cns:OriginDepCriteria><cns:OriginDestID>OD${i + 1}</cns:OriginDestID></cns:OriginDestCriteria>`;
}

function criteria(c: NonNullable<ShopOpts["criteria"]>[number]): string {
  return `<cns:ServiceCriteria>${c.include === undefined ? "" : `<cns:IncludeInd>${c.include}</cns:IncludeInd>`}${c.rfic ? `<cns:RFIC>${c.rfic}</cns:RFIC>` : ""}${(c.rfisc ?? []).map((r) => `<cns:RFISC>${r}</cns:RFISC>`).join("")}${(c.taxonomy ?? []).map((t) => `<cns:TaxonomyCode>${t}</cns:TaxonomyCode>`).join("")}</cns:ServiceCriteria>`;
}

function responseParams(currency?: string, langs?: string[]): string {
  if (!currency && !langs?.length) return "";
  return `<cns:ResponseParameters>${currency ? `<cns:CurParameter><cns:CurCode>${currency}</cns:CurCode></cns:CurParameter>` : ""}${(langs ?? []).map((l) => `<cns:LangUsage><cns:LangCode>${l}</cns:LangCode></cns:LangUsage>`).join("")}</cns:ResponseParameters>`;
}

function withPrimaryLang(xml: string, lang?: string): string {
  if (!lang) return xml;
  const tag = `<cns:PrimaryLangID>${lang}</cns:PrimaryLangID>`;
  // PayloadAttributes order: CorrelationID, PrimaryLangID, TrxID.
  if (xml.includes("</cns:CorrelationID>")) return xml.replace("</cns:CorrelationID>", `</cns:CorrelationID>${tag}`);
  return xml.replace("<Request>", `<PayloadAttributes>${tag}</PayloadAttributes><Request>`);
}

export function airShoppingRQ(o: ShopOpts): string {
  const pax = (o.pax ?? [["PAX1", "ADT"]]).map(([id, ptc]) => `<cns:Pax><cns:PaxID>${id}</cns:PaxID><cns:PTC>${ptc}</cns:PTC></cns:Pax>`).join("");
  const offerCriteria = o.criteria?.length ? `<cns:OfferCriteria>${o.criteria.map(criteria).join("")}</cns:OfferCriteria>` : "";
  const request = `<cns:FlightRequest><cns:FlightRequestOriginDestinationsCriteria>${o.legs.map(leg).join("")}</cns:FlightRequestOriginDestinationsCriteria></cns:FlightRequest>${offerCriteria}<cns:PaxList>${pax}</cns:PaxList>${responseParams(o.currency, o.langUsage)}`;
  return withPrimaryLang(ndcRequest("AirShoppingRQ", { request, correlationId: o.correlationId, seller: o.seller }), o.primaryLang);
}

export interface PriceOpts {
  offers: { offerId: string; items: { id: string; pax: string[]; qty?: number; seat?: [number, string] }[] }[];
  currency?: string;
  langUsage?: string[];
  correlationId?: string;
  seller?: string;
}

export function offerPriceRQ(o: PriceOpts): string {
  const sel = o.offers
    .map(
      (of) =>
        `<cns:SelectedOffer><cns:OfferRefID>${of.offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${of.items
          .map(
            (i) =>
              `<cns:SelectedOfferItem><cns:OfferItemRefID>${i.id}</cns:OfferItemRefID>${i.pax.map((p) => `<cns:PaxRefID>${p}</cns:PaxRefID>`).join("")}${
                i.seat ? `<cns:SelectedSeat><cns:ColumnID>${i.seat[1]}</cns:ColumnID><cns:SeatRowNumber>${i.seat[0]}</cns:SeatRowNumber></cns:SelectedSeat>` : ""
              }${i.qty ? `<cns:SelectedALaCarteOfferItem><cns:Qty>${i.qty}</cns:Qty></cns:SelectedALaCarteOfferItem>` : ""}</cns:SelectedOfferItem>`,
          )
          .join("")}</cns:SelectedOffer>`,
    )
    .join("");
  const request = `<cns:PricedOffer><cns:SelectedOfferList>${sel}</cns:SelectedOfferList></cns:PricedOffer>${responseParams(o.currency, o.langUsage)}`;
  return ndcRequest("OfferPriceRQ", { request, correlationId: o.correlationId, seller: o.seller });
}

/** Every value of an element in a response (namespace prefix ignored). */
export function all(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:cns:)?${name}(?: [^>]*)?>([^<]*)</(?:cns:)?${name}>`, "g"))].map((m) => m[1]!);
}

/** The blocks of an element (outer XML), e.g. each Offer. */
export function blocks(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:cns:)?${name}>[\\s\\S]*?</(?:cns:)?${name}>`, "g"))].map((m) => m[0]);
}

/** A date N days after the supply's start (the test clock's day). */
export function day(startIso: string, n: number): string {
  const d = new Date(`${startIso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
