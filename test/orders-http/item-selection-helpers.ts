/**
 * Offer items as OrderCreateRQ names them, for the "each item once, for its own passengers" rule:
 * a two-adult-and-a-child offer shopped over HTTP, its services (ServiceListRQ) and seats
 * (SeatAvailabilityRQ), each item with what the gateway stored for it (its passengers and price:
 * a total for flight items, one unit's price for a-la-carte items),
 * read from the offer store rather than from a response, so the expected money is independent.
 */
import { expect } from "bun:test";
import { eq } from "drizzle-orm";
import type { Clock } from "@ndc/clock";
import { OfferRepository, type OfferPayload, type StoredOfferItem } from "@ndc/shopping";
import { tables } from "@ndc/store";
import type { TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks } from "../shopping/shop-requests";
import { seatAvailabilityRQ, serviceListRQ } from "../shopping/seat-availability-helpers";
import { TRAVEL_DATE } from "./helpers";
import { multiOrderCreateRQ } from "./multi-offer-helpers";

export const OWNER = { clientId: "sandbox-local", agencyId: "SANDBOX-AGENCY" };
export const PAX = ["PAX1", "PAX2", "PAX3"] as const;
/** Two adults and a child, described as OrderCreateRQ must describe every passenger of the offer. */
export const PAX_SPECS = [
  { id: "PAX1", surname: "HOPPER" },
  { id: "PAX2", surname: "LOVELACE" },
  { id: "PAX3", surname: "TURING" },
];

/** An item the gateway issued, with the offer it is in. */
export interface PoolItem {
  offerId: string;
  stored: StoredOfferItem;
  /** An a-la-carte offer's item (ServiceList, SeatAvailability): its stored price is one unit's. */
  unitPriced?: true;
}

/** One naming of an item in a request: the item, the PaxRefIDs written with it and any Qty. */
export interface Naming {
  item: PoolItem;
  pax: string[];
  /** SelectedALaCarteOfferItem/Qty (SelectedOfferItem forms only). */
  qty?: number;
}

async function stored(t: TestGateway, clock: Clock, offerId: string): Promise<OfferPayload> {
  return (await new OfferRepository(t.gw.store, clock).resolve<OfferPayload>(offerId, OWNER)).payload;
}

export interface ShoppedParty {
  flightOfferId: string;
  /** The flight items: ADT (PAX1, PAX2) then CHD (PAX3). */
  flights: PoolItem[];
  /** ServiceListRQ's items by catalogue ref and passenger type, e.g. "BAG1/ADT", "RD-LHR-CAR/-". */
  services: Map<string, PoolItem>;
}

/** AirShoppingRQ (PAX1, PAX2 adults, PAX3 child, LHR-CDG, EUR) and ServiceListRQ for its first offer. */
export async function shopParty(t: TestGateway, clock: Clock): Promise<ShoppedParty> {
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: TRAVEL_DATE }], pax: [["PAX1", "ADT"], ["PAX2", "ADT"], ["PAX3", "CHD"]], currency: "EUR" }));
  expect(shop.status).toBe(200);
  const flightOfferId = all(blocks(shop.body, "Offer")[0]!, "OfferID")[0]!;
  const flights = (await stored(t, clock, flightOfferId)).items.map((s) => ({ offerId: flightOfferId, stored: s }));
  const sl = await t.ndc("ServiceListRQ", serviceListRQ({ offerId: flightOfferId, currency: "EUR" }));
  expect(sl.status).toBe(200);
  const alcId = all(blocks(sl.body, "ALaCarteOffer")[0]!, "OfferID")[0]!;
  const services = new Map<string, PoolItem>();
  for (const s of (await stored(t, clock, alcId)).items) services.set(`${s.ref}/${s.paxType ?? "-"}`, { offerId: alcId, stored: s, unitPriced: true });
  return { flightOfferId, flights, services };
}

/** SeatAvailabilityRQ now: the first `n` seats still for sale, each eligible for every seated passenger. */
export async function freshSeats(t: TestGateway, clock: Clock, flightOfferId: string, n: number): Promise<PoolItem[]> {
  const sa = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: flightOfferId, currency: "EUR" }));
  expect(sa.status).toBe(200);
  const offerId = all(blocks(sa.body, "ALaCarteOffer")[0]!, "OfferID")[0]!;
  return (await stored(t, clock, offerId)).items.slice(0, n).map((s) => ({ offerId, stored: s, unitPriced: true as const }));
}

const paxRefs = (pax: readonly string[]) => pax.map((p) => `<cns:PaxRefID>${p}</cns:PaxRefID>`).join("");
const qtyOf = (n: Naming) => (n.qty === undefined ? "" : `<cns:SelectedALaCarteOfferItem><cns:Qty>${n.qty}</cns:Qty></cns:SelectedALaCarteOfferItem>`);

/** AcceptSelectedQuotedOfferList: one SelectedPricedOffer per offer (first-seen order), its namings in order. */
export function quotedOffers(namings: readonly Naming[]): string {
  const byOffer = new Map<string, Naming[]>();
  for (const n of namings) byOffer.set(n.item.offerId, [...(byOffer.get(n.item.offerId) ?? []), n]);
  const offers = [...byOffer].map(
    ([offerId, ns]) =>
      `<cns:SelectedPricedOffer><cns:OfferRefID>${offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${ns
        .map((n) => `<cns:SelectedOfferItem><cns:OfferItemRefID>${n.item.stored.offerItemId}</cns:OfferItemRefID>${paxRefs(n.pax)}${qtyOf(n)}</cns:SelectedOfferItem>`)
        .join("")}</cns:SelectedPricedOffer>`,
  );
  return `<cns:AcceptSelectedQuotedOfferList>${offers.join("")}</cns:AcceptSelectedQuotedOfferList>`;
}

/** AcceptOrderItemList: one CreateOrderItem per naming, by OfferItemRefID and OwnerCode (24.4 has no PaxRefID there). */
export function orderItems(namings: readonly Naming[]): string {
  return `<cns:AcceptOrderItemList>${namings.map((n) => `<cns:CreateOrderItem><cns:OfferItemRefID>${n.item.stored.offerItemId}</cns:OfferItemRefID><cns:OwnerCode>XB</cns:OwnerCode></cns:CreateOrderItem>`).join("")}</cns:AcceptOrderItemList>`;
}

/** A card-paid OrderCreateRQ for the party with the given CreateOrder choice; `email`: PAX1's contact (partner products need one). */
export function partyOrderCreateRQ(create: string, amountMinor: number, correlationId: string, email?: string): string {
  const pax = PAX_SPECS.map((p, i) => (i === 0 && email ? { ...p, email } : p));
  const body = multiOrderCreateRQ({ create, pax, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor }], correlationId });
  // The child is described as one.
  return body.replace("<cns:PaxID>PAX3</cns:PaxID><cns:PTC>ADT</cns:PTC>", "<cns:PaxID>PAX3</cns:PaxID><cns:PTC>CHD</cns:PTC>");
}

/**
 * What one naming costs, the rule stated independently of the gateway's code: a flight item or a
 * priced offer's item at its stored total; an a-la-carte item at its unit price x units, a unit
 * being one passenger of those it is for where it was priced for a passenger type, else one (a
 * seat, the per-vehicle car), times Qty. `forAll`: the form names no passenger (CreateOrderItem),
 * so the item is for every passenger it was issued for.
 */
export function namingCharge(n: Naming, forAll = false): number {
  const s = n.item.stored;
  if (!n.item.unitPriced) return s.totalMinor;
  const pax = forAll ? s.paxIds : n.pax;
  const perPassenger = s.kind !== "seat" && s.paxType !== undefined;
  return (s.unitMinor ?? s.totalMinor) * (perPassenger ? pax.length : 1) * (n.qty ?? 1);
}

/** What an order of these namings must cost: each distinct item once, charged as namingCharge says. */
export function distinctTotal(namings: readonly Naming[], forAll = false): number {
  const seen = new Map<string, number>();
  for (const n of namings) if (!seen.has(n.item.stored.offerItemId)) seen.set(n.item.stored.offerItemId, namingCharge(n, forAll));
  return [...seen.values()].reduce((a, b) => a + b, 0);
}

/** What the simulated PSP holds for the card leg of an OrderViewRS (PaymentTrx/TrxID is its reference). */
export async function pspCapture(t: TestGateway, orderView: string): Promise<{ state: string; authorised: number; captured: number }> {
  const ref = all(blocks(orderView, "PaymentTrx")[0] ?? "", "TrxID")[0];
  expect(ref).toBeDefined();
  const rows = await t.gw.store.db.select().from(tables.pspSimPayments).where(eq(tables.pspSimPayments.pspReference, ref!));
  expect(rows).toHaveLength(1);
  return { state: rows[0]!.state, authorised: rows[0]!.authorised, captured: rows[0]!.captured };
}

/** How many payments the simulated PSP has ever seen: a refused order must add none. */
export async function pspPaymentCount(t: TestGateway): Promise<number> {
  return (await t.gw.store.db.select().from(tables.pspSimPayments)).length;
}

/** Order/TotalPrice/TotalAmount of an OrderViewRS, in minor units. */
export function orderTotalMinor(orderView: string): number {
  const order = blocks(orderView, "Order")[0]!;
  // TotalPrice's own TotalAmount is its last child; a Surcharge or Discount inside it has one too, before it.
  return Math.round(Number(all(blocks(order, "TotalPrice").at(-1)!, "TotalAmount").at(-1)) * 100);
}
