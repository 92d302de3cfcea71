/**
 * Shared by the OrderList, OrderHistory, OrderChange and booked-order ServiceList suites: a
 * gateway on a manual clock, orders booked through the order domain from flight offers saved
 * the way AirShopping stores them (so these suites do not depend on the OrderCreate handler),
 * and request bodies written the way sellers write them.
 */
import { ManualClock } from "@ndc/clock";
import type { LegRequest } from "@ndc/payments";
import type { Order, Seller } from "@ndc/orders";
import { OfferRepository, type FlightOfferPayload } from "@ndc/shopping";
import { addDays } from "@ndc/supply";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";

export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
export const OTHER: Seller = { clientId: "other-client", agencyId: "OTHER-AGENCY" };
/** EUR 200.00 per passenger. */
export const FARE_MINOR = 20_000;

export interface Ctx {
  t: TestGateway;
  clock: ManualClock;
  seller: Seller;
  repo: OfferRepository;
}

export async function start(env: Record<string, string> = {}): Promise<Ctx> {
  const clock = new ManualClock(T0);
  const t = await startTestGateway(env, clock);
  const seller = { clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id };
  return { t, clock, seller, repo: new OfferRepository(t.gw.store, clock) };
}

export interface BookOpts {
  tag: string;
  /** Days after the supply's first day; default 10. */
  day?: number;
  from?: string;
  to?: string;
  /** Adds a return journey this many days later. */
  returnAfter?: number;
  pax?: [string, string][];
  payment?: LegRequest[];
  seller?: Seller;
}

/** Saves a flight offer (SEG-<flight key> segment ids, as AirShopping issues them) and books it. */
export async function book(c: Ctx, o: BookOpts): Promise<Order> {
  const date = addDays(c.t.gw.supply.startDate, o.day ?? 10);
  const out = c.t.gw.supply.journeys(o.from ?? "LHR", o.to ?? "CDG", date)[0]!;
  const back = o.returnAfter ? c.t.gw.supply.journeys(o.to ?? "CDG", o.from ?? "LHR", addDays(date, o.returnAfter))[0]! : undefined;
  const pax = o.pax ?? [["PAX1", "ADT"]];
  const paxIds = pax.map(([id]) => id);
  const offerId = `OFR-${o.tag}`;
  const total = FARE_MINOR * pax.length;
  const payload: FlightOfferPayload = {
    kind: "flight",
    currency: "EUR",
    language: "en",
    pax: pax.map(([paxId, ptc]) => ({ paxId, ptc })),
    journeys: [out, ...(back ? [back] : [])].map((j) => ({
      paxJourneyId: j.id,
      brandCode: "CLASSIC",
      cabin: "ECONOMY",
      flightKeys: j.segments.map((f) => f.key),
      paxSegmentIds: j.segments.map((f) => `SEG-${f.key}`),
    })),
    items: [{ offerItemId: `${offerId}-FLT`, kind: "flight", paxIds, totalMinor: total, ref: "ADT" }],
    totalMinor: total,
  };
  const seller = o.seller ?? c.seller;
  await c.repo.save([{ offerId, source: "air_shopping", owner: seller, createdAt: c.clock.now(), expiresAt: c.clock.now() + 30 * 60_000, payload }]);
  return c.t.gw.orders.create({
    seller,
    correlationId: `corr-${o.tag}`,
    trxId: `trx-${o.tag}`,
    selections: [{ offerId, ownerCode: "XB" }],
    passengers: pax.map(([paxId], i) => ({ paxId, givenNames: ["ADA"], surname: `LOVELACE${i}`, birthdate: "1990-12-10" })),
    contact: { email: "ada@example.com" },
    ...(o.payment ? { payment: o.payment } : {}),
  });
}

export const card = (minor: number, token = "tok_approve_visa"): LegRequest => ({ kind: "card", token, amount: { amount: minor, currency: "EUR" } });

const orderKey = (orderId: string, owner = "XB") => `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>${owner}</cns:OwnerCode></cns:Order>`;

export interface ListOpts {
  created?: [string?, string?];
  modified?: [string?, string?];
  travel?: [string?, string?];
  carrier?: string;
  page?: { number?: number; size?: number; after?: string };
  status?: string[];
  correlationId?: string;
}

function range(name: string, from: string, to: string, r?: [string?, string?]): string {
  if (!r) return "";
  return `<cns:${name}>${r[0] ? `<cns:${from}>${r[0]}</cns:${from}>` : ""}${r[1] ? `<cns:${to}>${r[1]}</cns:${to}>` : ""}</cns:${name}>`;
}

export function orderListRQ(o: ListOpts = {}): string {
  const criteria =
    (o.carrier ? `<cns:CarrierFilterCriteria><cns:AirlineDesigCode>${o.carrier}</cns:AirlineDesigCode></cns:CarrierFilterCriteria>` : "") +
    range("CreationDateTimeFilterCriteria", "FromDateTime", "ToDateTime", o.created) +
    range("LastModifiedDateTimeFilterCriteria", "FromDateTime", "ToDateTime", o.modified) +
    range("TravelDateFilterCriteria", "EffectiveDate", "ExpirationDate", o.travel);
  const gw = 'xmlns:gw="urn:x-ndc-gateway:simulation:1"';
  const page = o.page
    ? `<gw:Page ${gw}${o.page.number ? ` number="${o.page.number}"` : ""}${o.page.size ? ` size="${o.page.size}"` : ""}${o.page.after ? ` after="${o.page.after}"` : ""}/>`
    : "";
  const status = (o.status ?? []).map((s) => `<gw:StatusCode ${gw}>${s}</gw:StatusCode>`).join("");
  const xml = ndcRequest("OrderListRQ", { request: `<cns:OrderSearchFilterCriteria>${criteria}</cns:OrderSearchFilterCriteria>`, correlationId: o.correlationId });
  // AugmentationPoint is the first child of the root.
  return page || status ? xml.replace(/(<IATA_OrderListRQ[^>]*>)/, `$1<AugmentationPoint>${page}${status}</AugmentationPoint>`) : xml;
}

export function orderHistoryRQ(orderId: string, o: { owner?: string; correlationId?: string } = {}): string {
  return ndcRequest("OrderHistoryRQ", { request: orderKey(orderId, o.owner), correlationId: o.correlationId });
}

export function orderRetrieveRQ(orderId: string): string {
  return ndcRequest("OrderRetrieveRQ", { request: `<cns:OrderValidationFilterCriteria><cns:OrderFilterCriteria><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:OrderFilterCriteria></cns:OrderValidationFilterCriteria>` });
}

/** OrderChangeRQ paying the order (PaymentFunctions alone); amount as written on the wire (e.g. "200.00"). */
export function paymentRetryRQ(orderId: string, amount: string, token: string, o: { correlationId?: string; trxId?: string; extra?: string; owner?: string } = {}): string {
  const pf = `<cns:PaymentFunctions><cns:OrderAssociation><cns:OrderRefID>${orderId}</cns:OrderRefID></cns:OrderAssociation><cns:PaymentProcessingDetails><cns:Amount CurCode="EUR">${amount}</cns:Amount><cns:PaymentMethod><cns:PaymentCard><cns:TokenizedCardID>${token}</cns:TokenizedCardID></cns:PaymentCard></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`;
  return ndcRequest("OrderChangeRQ", { request: `${o.extra ?? ""}${orderKey(orderId, o.owner)}${pf}`, correlationId: o.correlationId ?? "corr-pay", trxId: o.trxId ?? "trx-1" });
}

export function orderChangeRQ(request: string, o: { correlationId?: string; trxId?: string } = {}): string {
  return ndcRequest("OrderChangeRQ", { request, correlationId: o.correlationId ?? "corr-change", trxId: o.trxId ?? "trx-1" });
}

export function serviceListForOrderRQ(orderId: string, o: { owner?: string; criteria?: string; currency?: string } = {}): string {
  const crit = o.criteria ? `<cns:OfferCriteria>${o.criteria}</cns:OfferCriteria>` : "";
  const params = o.currency ? `<cns:ResponseParameters><cns:CurParameter><cns:CurCode>${o.currency}</cns:CurCode></cns:CurParameter></cns:ResponseParameters>` : "";
  return ndcRequest("ServiceListRQ", { request: `${crit}${params}<cns:ServiceListCoreRequest><cns:OrderRequest>${orderKey(orderId, o.owner)}</cns:OrderRequest></cns:ServiceListCoreRequest>` });
}

/** The cursor of the next page (gw:NextPage/@after in the answer's AugmentationPoint), if any. */
export function nextCursor(xml: string): string | undefined {
  return /<gw:NextPage [^>]*after="([^"]+)"/.exec(xml)?.[1];
}

/** Every text of an element, in document order. */
export function all(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:\\w+:)?${name}>([^<]*)</(?:\\w+:)?${name}>`, "g"))].map((m) => m[1]!);
}

/** Every element block (outer XML) of a name. */
export function blocks(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>[\\s\\S]*?</(?:\\w+:)?${name}>`, "g"))].map((m) => m[0]);
}

/** A body with correlation ids and the named order id blanked, to compare two refusals byte for byte. */
/** The body with the ids the caller chose (CorrelationID, TrxID) blanked: nothing else may differ. */
export function normalise(body: string): string {
  return body.replace(/<(\w+:)?(CorrelationID|TrxID)>[^<]*</g, "<$1$2>*<");
}
