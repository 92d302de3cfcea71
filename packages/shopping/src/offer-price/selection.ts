import { GatewayError } from "@ndc/errors";
import type { OfferPriceRequest, SeatChoice } from "../model";
import type { SellerRef, ShoppingContext } from "../context";
import { ids } from "../common/ids";
import type { ALaCartePayload, FlightOfferPayload, OfferPayload, StoredOfferItem } from "../offers/payload";
import { checkItemPicks, type ItemPick } from "../offers/item-picks";
import type { StoredOffer } from "../offers/repository";

/** An a-la-carte item chosen for pricing, with who it is for and how many. */
export interface ChosenExtra {
  offerId: string;
  item: StoredOfferItem;
  currency: string;
  paxIds: string[];
  qty: number;
  seat?: SeatChoice;
}

export interface Selection {
  flight: StoredOffer<FlightOfferPayload>;
  extras: ChosenExtra[];
}

const SELECTED = "Request/PricedOffer/SelectedOfferList/SelectedOffer";

function itemNotFound(offerId: string, itemId: string, element: string): GatewayError {
  return new GatewayError("offer_item_not_found", { detail: `OfferItemRefID ${itemId.slice(0, 64)} is not an item of offer ${offerId.slice(0, 64)}.`, element });
}

/**
 * The offers and items a seller selected, resolved for that seller (another seller's offer looks
 * missing; an expired one is refused). One flight offer per request: the priced offer is that
 * flight offer with the extras chosen from a-la-carte offers sold with it.
 */
export async function resolveSelection(ctx: ShoppingContext, request: OfferPriceRequest, seller: SellerRef): Promise<Selection> {
  if (request.form === "AcceptOrderItemList") return acceptForm(ctx, request, seller);
  let flight: StoredOffer<FlightOfferPayload> | undefined;
  const extras: ChosenExtra[] = [];
  const picks: { pick: ItemPick; item: StoredOfferItem }[] = [];
  for (const [i, sel] of request.selectedOffers.entries()) {
    const at = `${SELECTED}[${i + 1}]`;
    if (sel.ownerCode !== ctx.ownerCode) throw new GatewayError("offer_not_found", { detail: `OfferID ${sel.offerId.slice(0, 64)}.`, element: `${at}/OwnerCode` });
    const offer = await ctx.offers.resolve<OfferPayload>(sel.offerId, seller, `${at}/OfferRefID`);
    if (offer.payload.kind === "flight") {
      if (flight && flight.offerId !== offer.offerId) {
        throw new GatewayError("shopping_criteria_invalid", { detail: "Price one flight offer at a time, with extras from its a-la-carte offers.", element: `${at}/OfferRefID` });
      }
      flight = offer as StoredOffer<FlightOfferPayload>;
      for (const [k, s] of sel.items.entries()) {
        const el = `${at}/SelectedOfferItem[${k + 1}]`;
        const item = flight.payload.items.find((it) => it.offerItemId === s.offerItemId);
        if (!item) throw itemNotFound(sel.offerId, s.offerItemId, `${el}/OfferItemRefID`);
        picks.push({ pick: { offerItemId: s.offerItemId, paxIds: s.paxIds, at: el }, item });
      }
      continue;
    }
    const alc = offer.payload as ALaCartePayload;
    for (const [k, s] of sel.items.entries()) {
      const el = `${at}/SelectedOfferItem[${k + 1}]`;
      const item = alc.items.find((it) => it.offerItemId === s.offerItemId);
      if (!item) throw itemNotFound(sel.offerId, s.offerItemId, `${el}/OfferItemRefID`);
      picks.push({ pick: { offerItemId: s.offerItemId, paxIds: s.paxIds, ...(s.aLaCarte ? { qty: s.aLaCarte.qty } : {}), at: el }, item });
      extras.push({ offerId: sel.offerId, item, currency: alc.currency, paxIds: s.paxIds, qty: s.aLaCarte?.qty ?? 1, ...(s.seat ? { seat: s.seat } : {}) });
    }
    // The flight offer these extras are sold with is priced too, even when not listed itself.
    if (!flight) flight = await ctx.offers.resolve<FlightOfferPayload>(alc.flightOfferId, seller, `${at}/OfferRefID`);
    else if (flight.offerId !== alc.flightOfferId) {
      throw new GatewayError("shopping_criteria_invalid", { detail: `Offer ${sel.offerId.slice(0, 64)} is sold with another flight offer.`, element: `${at}/OfferRefID` });
    }
  }
  if (!flight) throw new GatewayError("shopping_criteria_invalid", { detail: "Select a flight offer.", element: SELECTED });
  // Every flight item is priced whatever is selected, but an extra would be priced once per
  // naming: the rule OrderCreate applies too (offers/item-picks.ts).
  checkItemPicks(picks);
  return { flight, extras };
}

/** CreateOrderItem carries no OfferID in 24.4: a flight item id names its offer (common/ids.ts). */
async function acceptForm(ctx: ShoppingContext, request: OfferPriceRequest, seller: SellerRef): Promise<Selection> {
  let flight: StoredOffer<FlightOfferPayload> | undefined;
  const picks: { pick: ItemPick; item: StoredOfferItem }[] = [];
  for (const [i, item] of request.orderItems.entries()) {
    const at = `Request/PricedOffer/AcceptOrderItemList/CreateOrderItem[${i + 1}]`;
    const el = `${at}/OfferItemRefID`;
    const offerId = item.offerItemId ? ids.offerOfItem(item.offerItemId) : undefined;
    if (!offerId) {
      throw new GatewayError("offer_item_not_found", { detail: "Name a flight offer item by OfferItemRefID; price extras with SelectedOfferList.", element: el });
    }
    const offer = await ctx.offers.resolve<FlightOfferPayload>(offerId, seller, el);
    const stored = offer.payload.kind === "flight" ? offer.payload.items.find((it) => it.offerItemId === item.offerItemId) : undefined;
    if (!stored) throw itemNotFound(offerId, item.offerItemId!, el);
    if (flight && flight.offerId !== offer.offerId) throw new GatewayError("shopping_criteria_invalid", { detail: "Price one flight offer at a time.", element: el });
    flight = offer;
    picks.push({ pick: { offerItemId: stored.offerItemId, at }, item: stored });
  }
  checkItemPicks(picks);
  return { flight: flight!, extras: [] };
}
