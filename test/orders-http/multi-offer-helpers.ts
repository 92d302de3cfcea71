/**
 * Several offers in one OrderCreateRQ, over HTTP: two one-way flight offers, the a-la-carte
 * offers ServiceListRQ and SeatAvailabilityRQ issue for them, and CreateOrder written in either
 * form (AcceptSelectedQuotedOfferList, or AcceptOrderItemList naming items by id alone).
 */
import { expect } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { seatAvailabilityRQ, serviceListRQ } from "../shopping/seat-availability-helpers";
import { airShoppingRQ, all, blocks } from "../shopping/shop-requests";
import { dayAfter, T0 } from "../support/dates";
import { orderCreateRQ, TRAVEL_DATE, type Leg, type PaxSpec } from "./helpers";

/** A week after TRAVEL_DATE (2027-01-19 for T0). */
export const RETURN_DATE = dayAfter(T0, 59);
const minor = (s: string) => Math.round(Number(s) * 100);

/** One item of an offer, as the seller read it from a response. */
export interface Chosen {
  offerId: string;
  itemId: string;
  priceMinor: number;
  /** SelectedBundleServices: ServiceDefinition ids of the options chosen. */
  options?: string[];
}

/** The first one-way offer from `from` to `to` (one adult, PAX1), its flight item. */
export async function shopOneWay(t: Pick<TestGateway, "ndc">, from: string, to: string, date: string): Promise<Chosen> {
  const r = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from, to, date }], pax: [["PAX1", "ADT"]], currency: "EUR" }));
  expect(r.status).toBe(200);
  const offer = blocks(r.body, "Offer")[0]!;
  return { offerId: all(offer, "OfferID")[0]!, itemId: all(offer, "OfferItemID")[0]!, priceMinor: minor(all(blocks(offer, "TotalPrice")[0]!, "TotalAmount")[0]!) };
}

/** ServiceListRQ for a flight offer: its items by ServiceDefinition id (SD-BAG1, SD-PP-ESIM, ...). */
export async function serviceItems(t: Pick<TestGateway, "ndc">, flightOfferId: string): Promise<Map<string, Chosen>> {
  const r = await t.ndc("ServiceListRQ", serviceListRQ({ offerId: flightOfferId, currency: "EUR" }));
  expect(r.status).toBe(200);
  const alc = blocks(r.body, "ALaCarteOffer")[0]!;
  const offerId = all(alc, "OfferID")[0]!;
  const out = new Map<string, Chosen>();
  for (const it of blocks(alc, "OfferItem")) {
    const def = all(it, "ServiceDefinitionRefID")[0]!;
    if (!out.has(def)) out.set(def, { offerId, itemId: all(it, "OfferItemID")[0]!, priceMinor: minor(all(it, "TotalAmount")[0]!) });
  }
  return out;
}

/** SeatAvailabilityRQ for a flight offer: its `n`th seat for sale, with the seat and flight it is. */
export async function seatItem(t: Pick<TestGateway, "ndc">, flightOfferId: string, n = 0): Promise<Chosen & { seatId: string; flightKey: string }> {
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: flightOfferId, currency: "EUR" }));
  expect(r.status).toBe(200);
  const alc = blocks(r.body, "ALaCarteOffer")[0]!;
  const item = blocks(alc, "OfferItem")[n]!;
  const itemId = all(item, "OfferItemID")[0]!;
  const seat = blocks(r.body, "Seat").find((s) => all(s, "OfferItemRefID").includes(itemId))!;
  const segment = all(item, "PaxSegmentRefID")[0]!;
  return {
    offerId: all(alc, "OfferID")[0]!,
    itemId,
    priceMinor: minor(all(item, "TotalAmount")[0]!),
    seatId: `${all(seat, "RowNumber")[0]}${all(seat, "ColumnID")[0]}`,
    flightKey: segment.replace(/^SEG-/, ""),
  };
}

export const total = (picks: readonly Chosen[]) => picks.reduce((s, p) => s + p.priceMinor, 0);

/** AcceptSelectedQuotedOfferList: one SelectedPricedOffer per offer, in first-seen order. */
export function quotedList(picks: readonly Chosen[]): string {
  const byOffer = new Map<string, Chosen[]>();
  for (const p of picks) byOffer.set(p.offerId, [...(byOffer.get(p.offerId) ?? []), p]);
  const item = (p: Chosen) => {
    const bundle = p.options ? `<cns:SelectedBundleServices>${p.options.map((o) => `<cns:SelectedServiceDefinitionRefID>${o}</cns:SelectedServiceDefinitionRefID>`).join("")}<cns:SelectedServiceRefID>${p.itemId}-1</cns:SelectedServiceRefID></cns:SelectedBundleServices>` : "";
    return `<cns:SelectedOfferItem><cns:OfferItemRefID>${p.itemId}</cns:OfferItemRefID><cns:PaxRefID>PAX1</cns:PaxRefID>${bundle}</cns:SelectedOfferItem>`;
  };
  const offers = [...byOffer].map(([offerId, ps]) => `<cns:SelectedPricedOffer><cns:OfferRefID>${offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${ps.map(item).join("")}</cns:SelectedPricedOffer>`);
  return `<cns:AcceptSelectedQuotedOfferList>${offers.join("")}</cns:AcceptSelectedQuotedOfferList>`;
}

/** AcceptOrderItemList: every item by OfferItemRefID and OwnerCode alone (24.4 has no OfferID there). */
export function itemList(picks: readonly Chosen[]): string {
  return `<cns:AcceptOrderItemList>${picks.map((p) => `<cns:CreateOrderItem><cns:OfferItemRefID>${p.itemId}</cns:OfferItemRefID><cns:OwnerCode>XB</cns:OwnerCode></cns:CreateOrderItem>`).join("")}</cns:AcceptOrderItemList>`;
}

export interface MultiCreate {
  create: string;
  pax?: PaxSpec[];
  legs?: Leg[];
  correlationId: string;
  trxId?: string;
}

/** An OrderCreateRQ with the given CreateOrder choice; passengers, contacts and legs as helpers.ts writes them. */
export function multiOrderCreateRQ(o: MultiCreate): string {
  const body = orderCreateRQ({ shopped: { offerId: "X", itemIds: [], totalMinor: 0 }, pax: o.pax ?? [{ id: "PAX1", surname: "TRAVELLER" }], legs: o.legs, correlationId: o.correlationId, trxId: o.trxId ?? "TRX-1" });
  return body.replace(/<cns:CreateOrder>[\s\S]*?<\/cns:CreateOrder>/, `<cns:CreateOrder>${o.create}</cns:CreateOrder>`);
}

export { TRAVEL_DATE };
