import { at, kids, textAt, type Element } from "../xml/dom";
import { el } from "../xml/envelope";
import { answer, readOfferItem, responseParameters, selectedItems, totalOf, type Amount, type Answer, type OfferItem, type SelectedOffer } from "./common";
import { paxList, type PartyMember } from "./party";

/** Request bodies (the content of `Request`) and readers of the shopping messages: shop, price, seats, services. */

export interface ShopRequest {
  origin: string;
  destination: string;
  /** YYYY-MM-DD */
  date: string;
  passengers: readonly PartyMember[];
  /** 24.4 cabin code, e.g. M (economy) or C (business). */
  cabin?: string;
  currency?: string;
  language?: string;
}

export function shopRequest(r: ShopRequest): string {
  const cabin = r.cabin ? `<cns:CabinType>${el("CabinTypeCode", r.cabin)}<cns:PrefLevel><cns:PrefLevelCode>Required</cns:PrefLevelCode></cns:PrefLevel></cns:CabinType>` : "";
  const od = `<cns:OriginDestCriteria>${cabin}<cns:DestArrivalCriteria>${el("IATA_LocationCode", r.destination)}</cns:DestArrivalCriteria><cns:OriginDepCriteria>${el("Date", r.date)}${el("IATA_LocationCode", r.origin)}</cns:OriginDepCriteria><cns:OriginDestID>OD1</cns:OriginDestID></cns:OriginDestCriteria>`;
  return `<cns:FlightRequest><cns:FlightRequestOriginDestinationsCriteria>${od}</cns:FlightRequestOriginDestinationsCriteria></cns:FlightRequest>${paxList(r.passengers)}${responseParameters(r)}`;
}

/** A flight offer of AirShoppingRS or OfferPriceRS. */
export interface Offer {
  offerId: string;
  ownerCode: string;
  items: OfferItem[];
  total?: Amount;
  /** The fare brand (PriceClass code, e.g. FLEX) of its first journey. */
  brand?: string;
  /** What the offer says of a name change after booking (`ChangeRestrictions` of type Name). */
  nameChangeAllowed?: boolean;
  expiresAt?: string;
}

export interface ALaCarteOffer {
  offerId: string;
  ownerCode: string;
  items: OfferItem[];
}

function readOffer(o: Element, brands: Map<string, string>): Offer {
  const items = kids(o, "OfferItem");
  const nameRule = items.flatMap((i) => kids(i, "ChangeRestrictions")).find((c) => textAt(c, "ChangeTypeCode") === "Name");
  const pcRef = textAt(o, "JourneyOverview", "JourneyPriceClass", "PriceClassRefID");
  return {
    offerId: textAt(o, "OfferID") ?? "",
    ownerCode: textAt(o, "OwnerCode") ?? "",
    items: items.map(readOfferItem),
    total: totalOf(o),
    brand: pcRef ? (brands.get(pcRef) ?? pcRef) : undefined,
    nameChangeAllowed: nameRule ? textAt(nameRule, "AllowedModificationInd") === "true" : undefined,
    expiresAt: textAt(o, "OfferExpirationTimeLimitDateTime"),
  };
}

function readALaCarte(o: Element): ALaCarteOffer {
  return { offerId: textAt(o, "OfferID") ?? "", ownerCode: textAt(o, "OwnerCode") ?? "", items: kids(o, "OfferItem").map(readOfferItem) };
}

function priceClasses(root: Element): Map<string, string> {
  const list = at(root, "Response", "DataLists", "PriceClassList");
  return new Map(list ? kids(list, "PriceClass").map((p) => [textAt(p, "PriceClassID") ?? "", textAt(p, "Code") ?? ""]) : []);
}

export interface ShopResult extends Answer {
  offers: Offer[];
  aLaCarte: ALaCarteOffer[];
}

export function readShop(xml: string): ShopResult {
  const a = answer(xml);
  const group = at(a.root, "Response", "OffersGroup", "CarrierOffers");
  return {
    ...a,
    offers: group ? kids(group, "Offer").map((o) => readOffer(o, priceClasses(a.root))) : [],
    aLaCarte: group ? kids(group, "ALaCarteOffer").map(readALaCarte) : [],
  };
}

/** The offer as selected for pricing or booking: every item, for the passengers it was issued for. */
export function selectAll(offer: { offerId: string; ownerCode: string; items: readonly OfferItem[] }): SelectedOffer {
  return { offerId: offer.offerId, ownerCode: offer.ownerCode, items: offer.items.map((i) => ({ offerItemId: i.offerItemId, paxRefIds: i.paxRefIds })) };
}

export interface PriceRequest {
  offers: readonly SelectedOffer[];
  currency?: string;
  language?: string;
}

export function priceRequest(r: PriceRequest): string {
  const selected = r.offers.map((o) => `<cns:SelectedOffer>${el("OfferRefID", o.offerId)}${el("OwnerCode", o.ownerCode)}${selectedItems(o.items)}</cns:SelectedOffer>`).join("");
  return `<cns:PricedOffer><cns:SelectedOfferList>${selected}</cns:SelectedOfferList></cns:PricedOffer>${responseParameters(r)}`;
}

export interface PriceResult extends Answer {
  offer: Offer;
}

export function readPrice(xml: string): PriceResult {
  const a = answer(xml);
  const priced = at(a.root, "Response", "PricedOffer");
  if (!priced) throw new Error("OfferPriceRS holds no PricedOffer");
  return { ...a, offer: readOffer(priced, priceClasses(a.root)) };
}

/** The subject of a seat map or a service list: a shopped offer, or a booked order. */
export type OfferOrOrder = { offerId: string; ownerCode: string } | { orderId: string; ownerCode: string };

function subject(s: OfferOrOrder): string {
  return "offerId" in s
    ? `<cns:OfferRequest><cns:Offer>${el("OfferID", s.offerId)}${el("OwnerCode", s.ownerCode)}</cns:Offer></cns:OfferRequest>`
    : `<cns:OrderRequest><cns:Order>${el("OrderID", s.orderId)}${el("OwnerCode", s.ownerCode)}</cns:Order></cns:OrderRequest>`;
}

export function seatsRequest(r: OfferOrOrder & { currency?: string; language?: string }): string {
  return `${responseParameters(r)}<cns:SeatAvailCoreRequest>${subject(r)}</cns:SeatAvailCoreRequest>`;
}

export interface Seat {
  row: string;
  column: string;
  /** 24.4 OccupationStatusCode: F free, O occupied, Z not offered. */
  status: string;
  /** The a-la-carte item that sells it, when it is for sale. */
  offerItemId?: string;
}

export interface SeatsResult extends Answer {
  offers: ALaCarteOffer[];
  seats: Seat[];
}

export function readSeats(xml: string): SeatsResult {
  const a = answer(xml);
  const response = at(a.root, "Response");
  const seats: Seat[] = [];
  for (const map of response ? kids(response, "SeatMap") : []) {
    for (const cabin of kids(map, "CabinCompartment"))
      for (const row of kids(cabin, "SeatRow"))
        for (const s of kids(row, "Seat"))
          seats.push({ row: textAt(s, "RowNumber") ?? textAt(row, "RowNumber") ?? "", column: textAt(s, "ColumnID") ?? "", status: textAt(s, "OccupationStatusCode") ?? "", offerItemId: textAt(s, "OfferItemRefID") });
  }
  const group = at(response, "OffersGroup", "CarrierOffers");
  const offers = [...(response ? kids(response, "ALaCarteOffer") : []), ...(group ? kids(group, "ALaCarteOffer") : [])];
  return { ...a, offers: offers.map(readALaCarte), seats };
}

export function servicesRequest(r: OfferOrOrder & { taxonomyCodes?: string[]; currency?: string; language?: string }): string {
  const criteria = r.taxonomyCodes?.length ? `<cns:OfferCriteria>${r.taxonomyCodes.map((c) => `<cns:ServiceCriteria>${el("TaxonomyCode", c)}</cns:ServiceCriteria>`).join("")}</cns:OfferCriteria>` : "";
  return `${criteria}${responseParameters(r)}<cns:ServiceListCoreRequest>${subject(r)}</cns:ServiceListCoreRequest>`;
}

export interface Service {
  serviceDefinitionId: string;
  name?: string;
}

export interface ServicesResult extends Answer {
  offers: ALaCarteOffer[];
  services: Service[];
}

export function readServices(xml: string): ServicesResult {
  const a = answer(xml);
  const response = at(a.root, "Response");
  const holder = at(response, "OffersGroup", "CarrierOffers") ?? response;
  const defs = at(response, "DataLists", "ServiceDefinitionList");
  return {
    ...a,
    offers: holder ? kids(holder, "ALaCarteOffer").map(readALaCarte) : [],
    services: defs ? kids(defs, "ServiceDefinition").map((d) => ({ serviceDefinitionId: textAt(d, "ServiceDefinitionID") ?? "", name: textAt(d, "Name") })) : [],
  };
}
