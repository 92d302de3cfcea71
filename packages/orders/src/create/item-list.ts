import { GatewayError } from "@ndc/errors";
import { shoppingIds, type FlightOfferPayload } from "@ndc/shopping";
import type { OrdersContext } from "../context";
import type { Seller } from "../state";
import { candidateOfferIds, itemIndex } from "./a-la-carte-offers";
import type { OfferSelection, OrderCreateInput, OrderItemRef } from "./input";

/**
 * AcceptOrderItemList -> the offers and items taken. 24.4's CreateOrderItem carries no OfferID:
 * a flight item's id names its offer (`<OfferID>-<PTC>`), so flight items are grouped by it;
 * a seat, service, ride, partner product or bundle item's id is the supply's priced-item id
 * and names nothing, so it is looked up in the a-la-carte offers tied to the flight offers the
 * same request names (a-la-carte-offers.ts). An extra is only ever sold with its flight, so an
 * item in none of them is refused (offer_item_not_found, naming the CreateOrderItem) rather
 * than searched for across the seller's other offers.
 */
export async function itemListSelections(ctx: OrdersContext, items: readonly OrderItemRef[], seller: Seller): Promise<OfferSelection[]> {
  const byOffer = new Map<string, OfferSelection>();
  // Each with the CreateOrderItem naming it: the domain refuses an item named twice there.
  const take = (offerId: string, item: OrderItemRef) => {
    const sel = byOffer.get(offerId) ?? { offerId, ownerCode: item.ownerCode, items: [] };
    sel.items!.push({ offerItemId: item.offerItemId!, at: item.at });
    byOffer.set(offerId, sel);
  };
  const extras: OrderItemRef[] = [];
  const flightOffers: { offerId: string; at: string }[] = [];
  for (const item of items) {
    const at = item.at;
    if (!item.offerItemId) {
      throw new GatewayError("request_invalid", { detail: "A CreateOrderItem is booked by OfferItemRefID: OfferItemType alone names no offer item.", element: `${at}/OfferItemRefID` });
    }
    // Answered like an unknown offer, as the domain answers another airline's OfferID.
    if (item.ownerCode !== ctx.ownerCode) throw new GatewayError("offer_not_found", { detail: `OfferItemRefID ${item.offerItemId.slice(0, 64)} (OwnerCode ${item.ownerCode.slice(0, 3)}).`, element: `${at}/OwnerCode` });
    const offerId = shoppingIds.offerOfItem(item.offerItemId);
    if (!offerId) {
      extras.push(item);
      continue;
    }
    if (!byOffer.has(offerId)) flightOffers.push({ offerId, at: `${at}/OfferItemRefID` });
    take(offerId, item);
  }
  if (extras.length === 0) return [...byOffer.values()];

  // Only the flight offers this request names: their a-la-carte offers are where extras live.
  const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
  const flights = await Promise.all(flightOffers.map((f) => ctx.offers.resolve<FlightOfferPayload>(f.offerId, owner, f.at)));
  const index = await itemIndex(ctx.offers, owner, [...new Set(flights.flatMap((f) => candidateOfferIds(ctx.supply.seed, f)))]);
  for (const item of extras) {
    const offerId = index.get(item.offerItemId!);
    if (!offerId) {
      throw new GatewayError("offer_item_not_found", {
        detail: `OfferItemRefID ${item.offerItemId!.slice(0, 64)} is in no seat or service offer of the flight offers this request books (sell extras with their flight: name its flight items too).`,
        element: `${item.at}/OfferItemRefID`,
      });
    }
    take(offerId, item);
  }
  return [...byOffer.values()];
}

/**
 * The input with an AcceptOrderItemList request's items traced to their offers (the saga and its
 * fingerprint see the traced selections, as they always have); any other form as it is.
 */
export async function withItemList(ctx: OrdersContext, input: OrderCreateInput): Promise<OrderCreateInput> {
  const { orderItems, ...rest } = input;
  if (!orderItems) return input;
  return { ...rest, selections: await itemListSelections(ctx, orderItems, input.seller) };
}
