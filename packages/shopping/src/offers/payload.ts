/**
 * What a stored flight offer remembers, so OfferPrice, SeatAvailability, ServiceList and (later)
 * OrderCreate can work from it without trusting anything the seller sends back. AirShopping
 * writes it; the fields below are the contract the other messages read. Writers may add fields.
 */
export interface StoredPax {
  paxId: string;
  /** ADT, CHD or INF. */
  ptc: string;
}

export interface StoredJourney {
  /** PaxJourneyID as issued in the response. */
  paxJourneyId: string;
  brandCode: string;
  cabin: string;
  /** Supply flight keys of the journey's segments, in order (e.g. XB-100-2027-01-12). */
  flightKeys: string[];
  /** PaxSegmentID issued for each flight key, same order. */
  paxSegmentIds: string[];
}

export interface StoredOfferItem {
  offerItemId: string;
  kind: "flight" | "service" | "seat" | "ride" | "partner_product" | "bundle";
  paxIds: string[];
  /**
   * Integer minor units in the offer's currency: a flight offer's item (priced offers' extras
   * included), all passengers of the item together; an a-la-carte offer's item, one unit (as
   * unitMinor), charged per offers/extra-charge.ts for the passengers and Qty it is bought for.
   */
  totalMinor: number;
  /** Catalogue reference: RFISC/service code, seat id, ride or partner product code. */
  ref?: string;
  /** Price of one unit for one passenger (a-la-carte items), integer minor units. */
  unitMinor?: number;
  /** Supply flight keys the item is for (a-la-carte items), so OfferPrice can re-price it. */
  flightKeys?: string[];
  /** Passenger type the unit price is for; absent when priced per vehicle or per order. */
  paxType?: string;
  /** Quantity bought (priced offers). */
  qty?: number;
}

export interface FlightOfferPayload {
  kind: "flight";
  currency: string;
  /** The content language the offer was issued in. */
  language: string;
  pax: StoredPax[];
  journeys: StoredJourney[];
  items: StoredOfferItem[];
  totalMinor: number;
  /** Priced offers (source offer_price): the offers priced together (flight offer first). */
  pricedFrom?: string[];
  /** Priced offers: promotion adjustments applied, per item (positive discount or surcharge amounts). */
  adjustments?: { ruleId: string; offerItemId: string; effect: "discount" | "surcharge"; minor: number }[];
}

/** An a-la-carte offer (ServiceList, SeatAvailability, AirShopping ServiceCriteria) tied to its flight offer. */
export interface ALaCartePayload {
  kind: "a_la_carte";
  currency: string;
  language: string;
  /** The flight offer these services are sold with. */
  flightOfferId: string;
  items: StoredOfferItem[];
}

export type OfferPayload = FlightOfferPayload | ALaCartePayload;

/**
 * The payload as stored: `JSON.stringify(payload)`, except that the JSON of a frozen value in it
 * (the journeys and a-la-carte items shopping keeps across requests, air-shopping/offer-parts.ts
 * and a-la-carte.ts) is made once and reused for as long as the value lives: a frozen value never
 * changes. Same text as JSON.stringify (test/shopping/shop-memo.test.ts).
 */
export function payloadJson(payload: object): string {
  let out = "{";
  for (const key in payload) {
    const v = (payload as Record<string, unknown>)[key];
    const text = v !== null && typeof v === "object" ? (kept.get(v) ?? keptJson(v)) : JSON.stringify(v);
    if (text === undefined) continue;
    let name = keyJson.get(key);
    if (name === undefined) {
      if (keyJson.size >= 256) keyJson.clear(); // names come from code, never from requests; a guard all the same
      keyJson.set(key, (name = JSON.stringify(key) + ":"));
    }
    out += (out.length > 1 ? "," : "") + name + text;
  }
  return out + "}";
}

const kept = new WeakMap<object, string>();
/** `"key":` per property name: payloads have a dozen names between them. */
const keyJson = new Map<string, string>();

/** The JSON of an object not kept yet: kept when the object is frozen. */
function keptJson(v: object): string {
  const text = JSON.stringify(v);
  if (Object.isFrozen(v)) kept.set(v, text);
  return text;
}
