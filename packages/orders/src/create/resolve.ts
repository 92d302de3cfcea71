import { GatewayError } from "@ndc/errors";
import { checkItemPicks, extraCharge, type ALaCartePayload, type FlightOfferPayload, type ItemPick, type OfferPayload, type OfferRepository, type StoredOfferItem, type StoredPax } from "@ndc/shopping";
import { ids } from "../ids";
import type { OrderAdjustment, OrderItem, OrderJourney, Seller } from "../state";
import { bundleOptionsOf } from "./bundle-options";
import type { OfferSelection } from "./input";

/** What the selected offers add up to, read only from what the gateway stored when it issued them. */
export interface Resolution {
  currency: string;
  offers: { offerId: string; ownerCode: string }[];
  items: OrderItem[];
  adjustments: OrderAdjustment[];
  journeys: OrderJourney[];
  pax: StoredPax[];
  totalMinor: number;
  /** Seats taken, per flight. */
  seats: { flightKey: string; seatIds: string[] }[];
  /** Partner product codes, one entry per unit asked for (the rules step refuses a second). */
  partnerUnits: string[];
}

/**
 * Step 1: every selected offer must be one the gateway issued to this seller and not yet
 * expired (offer_not_found / offer_expired), with this airline's OwnerCode; the items come from
 * the stored offer, never from the request.
 */
export async function resolveSelections(offers: OfferRepository, seller: Seller, ownerCode: string, selections: readonly OfferSelection[], orderId: string): Promise<Resolution> {
  if (selections.length === 0) throw new GatewayError("request_invalid", { detail: "No offer selected.", element: "CreateOrder" });
  const seen = new Set<string>();
  const stored: { sel: OfferSelection; payload: OfferPayload }[] = [];
  for (const sel of selections) {
    if (seen.has(sel.offerId)) throw new GatewayError("request_invalid", { detail: `OfferID ${sel.offerId.slice(0, 64)} is selected twice.` });
    seen.add(sel.offerId);
    // Another airline's offer is not ours to sell: answered like an unknown offer.
    if (sel.ownerCode !== ownerCode) throw new GatewayError("offer_not_found", { detail: `OfferID ${sel.offerId.slice(0, 64)} (OwnerCode ${sel.ownerCode.slice(0, 3)}).`, element: "OwnerCode" });
    const offer = await offers.resolve<OfferPayload>(sel.offerId, seller);
    stored.push({ sel, payload: offer.payload });
  }
  const flights = stored.filter((s): s is { sel: OfferSelection; payload: FlightOfferPayload } => s.payload.kind === "flight");
  if (flights.length === 0) throw new GatewayError("request_invalid", { detail: "No flight offer selected." });
  const currency = stored[0]!.payload.currency;
  if (stored.some((s) => s.payload.currency !== currency)) throw new GatewayError("request_invalid", { detail: "The selected offers are in different currencies." });

  const covered = new Set(flights.flatMap((f) => [f.sel.offerId, ...(f.payload.pricedFrom ?? [])]));
  const pax = new Map<string, StoredPax>();
  const journeys = new Map<string, OrderJourney>();
  for (const f of flights) {
    for (const p of f.payload.pax) pax.set(p.paxId, p);
    for (const j of f.payload.journeys) journeys.set(j.paxJourneyId, { paxJourneyId: j.paxJourneyId, flightKeys: j.flightKeys, brandCode: j.brandCode, cabin: j.cabin });
  }

  const items: OrderItem[] = [];
  const adjustments: OrderAdjustment[] = [];
  const picked = stored.map((s) => ({ ...s, picks: pick(s.payload.items, s.sel) }));
  // Each item once, for passengers it was issued for (shopping's checkItemPicks).
  checkItemPicks(picked.flatMap((p) => p.picks));
  for (const { sel, payload, picks } of picked) {
    if (payload.kind === "a_la_carte" && !covered.has((payload as ALaCartePayload).flightOfferId)) {
      throw new GatewayError("request_invalid", { detail: `Offer ${sel.offerId.slice(0, 64)} is sold with a flight offer that is not selected.` });
    }
    for (const { pick: p, item: it } of picks) {
      const bundleOptions = bundleOptionsOf(sel, it);
      const charge = charged(payload, p, it);
      items.push({
        orderItemId: ids.orderItem(orderId, `${sel.offerId}/${it.offerItemId}`),
        offerId: sel.offerId,
        offerItemId: it.offerItemId,
        kind: it.kind,
        ...charge,
        ...(it.ref ? { ref: it.ref } : {}),
        ...(it.flightKeys ? { flightKeys: it.flightKeys } : {}),
        ...(bundleOptions ? { bundleOptions } : {}),
      });
      for (const paxId of charge.paxIds) if (!pax.has(paxId)) throw new GatewayError("request_invalid", { detail: `Offer item ${it.offerItemId.slice(0, 64)} names a passenger of no selected flight offer.` });
    }
    const taken = new Set(picks.map((c) => c.item.offerItemId));
    if (payload.kind === "flight") {
      requireFareForEveryPax(sel, payload, picks);
      for (const a of payload.adjustments ?? []) if (taken.has(a.offerItemId)) adjustments.push({ offerId: sel.offerId, ...a });
    }
  }

  const seatsByFlight = new Map<string, string[]>();
  const partnerUnits: string[] = [];
  for (const it of items) {
    if (it.kind === "seat") {
      const flightKey = it.flightKeys?.[0];
      if (!flightKey || !it.ref) throw new GatewayError("request_invalid", { detail: `Seat item ${it.offerItemId.slice(0, 64)} names no seat.` });
      const list = seatsByFlight.get(flightKey) ?? [];
      if (list.includes(it.ref)) throw new GatewayError("seat_unavailable", { detail: `Seat ${it.ref} on ${flightKey} is selected twice.` });
      seatsByFlight.set(flightKey, [...list, it.ref]);
    }
    if (it.kind === "partner_product" && it.ref) for (let i = 0; i < Math.max(1, it.qty ?? 1); i++) partnerUnits.push(it.ref);
  }

  return {
    currency,
    offers: selections.map((s) => ({ offerId: s.offerId, ownerCode: s.ownerCode })),
    items,
    adjustments,
    journeys: [...journeys.values()],
    pax: [...pax.values()],
    totalMinor: items.reduce((s, it) => s + it.totalMinor, 0),
    seats: [...seatsByFlight].map(([flightKey, seatIds]) => ({ flightKey, seatIds })),
    partnerUnits,
  };
}

/**
 * Who an item is booked for and what it costs. An a-la-carte offer (AirShopping, ServiceList,
 * SeatAvailability) lists unit prices: booked directly, its item is for the passengers named
 * with PaxRefID (every eligible one where the form names none, CreateOrderItem) and charged by
 * the rule OfferPriceRQ prices with (shopping's extraCharge). A flight offer's items, and the
 * extras of a priced offer (OPR-), are already priced for their passengers: their stored total.
 */
export function charged(payload: OfferPayload, p: ItemPick, it: StoredOfferItem): Pick<OrderItem, "paxIds" | "totalMinor" | "qty"> {
  if (payload.kind === "flight") return { paxIds: it.paxIds, totalMinor: it.totalMinor, ...(it.qty ? { qty: it.qty } : {}) };
  const paxIds = p.paxIds?.length ? [...p.paxIds] : it.paxIds;
  const qty = p.qty ?? 1;
  return { paxIds, totalMinor: extraCharge(it.unitMinor ?? it.totalMinor, it, paxIds, qty), ...(qty > 1 ? { qty } : {}) };
}

export function pick(items: readonly StoredOfferItem[], sel: OfferSelection): { pick: ItemPick; item: StoredOfferItem }[] {
  if (!sel.items) return items.map((item) => ({ pick: { offerItemId: item.offerItemId }, item }));
  if (sel.items.length === 0) throw new GatewayError("request_invalid", { detail: `No item selected from offer ${sel.offerId.slice(0, 64)}.` });
  return sel.items.map((p) => {
    const item = items.find((i) => i.offerItemId === p.offerItemId);
    if (!item) throw new GatewayError("offer_not_found", { detail: `OfferItemID ${p.offerItemId.slice(0, 64)} is not in offer ${sel.offerId.slice(0, 64)}.`, element: p.at ? `${p.at}/OfferItemRefID` : "OfferItemID" });
    return { pick: p, item };
  });
}

/**
 * Every passenger of a flight offer travels on it, so each needs a fare: the flight items taken
 * must cover all of them. Without this, naming only the adults' item of a family offer booked
 * the child on the order's journeys with no fare at all. OfferPrice always prices every flight
 * item, so a priced offer passes.
 */
function requireFareForEveryPax(sel: OfferSelection, payload: FlightOfferPayload, picks: readonly { pick: ItemPick; item: StoredOfferItem }[]): void {
  const fared = new Set(picks.filter((p) => p.item.kind === "flight").flatMap((p) => p.item.paxIds));
  const unfared = payload.pax.map((p) => p.paxId).filter((id) => !fared.has(id));
  if (unfared.length === 0) return;
  // The selected offer's element (SelectedPricedOffer), or the list of CreateOrderItems.
  const element = picks[0]?.pick.at?.replace(/\/(SelectedOfferItem|CreateOrderItem)\[\d+\]$/, "") ?? "Request/CreateOrder";
  throw new GatewayError("request_invalid", {
    detail: `Offer ${sel.offerId.slice(0, 64)}: ${unfared.map((id) => id.slice(0, 64)).join(", ")} would travel without a fare. Select every flight item of the offer, or shop again for the passengers who travel.`,
    element,
  });
}
