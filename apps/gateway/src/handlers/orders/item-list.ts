import { GatewayError } from "@ndc/errors";
import type { CreateOrderItemRef, OrderCreateRequest, SellerContext } from "@ndc/messages";
import type { OfferSelection, OrderCreateInput } from "@ndc/orders";
import { shoppingIds, type FlightOfferPayload, type OfferRepository } from "@ndc/shopping";
import type { HandlerDeps } from "../deps";
import { candidateOfferIds, itemIndex } from "./a-la-carte-offers";

const EL = "Request/CreateOrder/AcceptOrderItemList/CreateOrderItem";

export interface ItemListDeps {
  offers: OfferRepository;
  seed: string | number;
  /** The airline's designator: an item of another OwnerCode is not ours to sell. */
  ownerCode: string;
}

/**
 * AcceptOrderItemList -> the offers and items taken. 24.4's CreateOrderItem carries no OfferID:
 * a flight item's id names its offer (`<OfferID>-<PTC>`), so flight items are grouped by it;
 * a seat, service, ride, partner product or bundle item's id is the supply's priced-item id
 * and names nothing, so it is looked up in the a-la-carte offers tied to the flight offers the
 * same request names (a-la-carte-offers.ts). An extra is only ever sold with its flight, so an
 * item in none of them is refused (offer_item_not_found, naming the CreateOrderItem) rather
 * than searched for across the seller's other offers.
 */
export async function itemListSelections(items: readonly CreateOrderItemRef[], seller: SellerContext, deps: ItemListDeps): Promise<OfferSelection[]> {
  const byOffer = new Map<string, OfferSelection>();
  // Each with the CreateOrderItem naming it: the domain refuses an item named twice there.
  const take = (offerId: string, item: CreateOrderItemRef, at: string) => {
    const sel = byOffer.get(offerId) ?? { offerId, ownerCode: item.ownerCode, items: [] };
    sel.items!.push({ offerItemId: item.offerItemId!, at });
    byOffer.set(offerId, sel);
  };
  const extras: { item: CreateOrderItemRef; at: string }[] = [];
  const flightOffers: { offerId: string; at: string }[] = [];
  items.forEach((item, i) => {
    const at = `${EL}[${i + 1}]`;
    if (!item.offerItemId) {
      throw new GatewayError("request_invalid", { detail: "A CreateOrderItem is booked by OfferItemRefID: OfferItemType alone names no offer item.", element: `${at}/OfferItemRefID` });
    }
    // Answered like an unknown offer, as the domain answers another airline's OfferID.
    if (item.ownerCode !== deps.ownerCode) throw new GatewayError("offer_not_found", { detail: `OfferItemRefID ${item.offerItemId.slice(0, 64)} (OwnerCode ${item.ownerCode.slice(0, 3)}).`, element: `${at}/OwnerCode` });
    const offerId = shoppingIds.offerOfItem(item.offerItemId);
    if (!offerId) return void extras.push({ item, at });
    if (!byOffer.has(offerId)) flightOffers.push({ offerId, at: `${at}/OfferItemRefID` });
    take(offerId, item, at);
  });
  if (extras.length === 0) return [...byOffer.values()];

  // Only the flight offers this request names: their a-la-carte offers are where extras live.
  const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
  const flights = await Promise.all(flightOffers.map((f) => deps.offers.resolve<FlightOfferPayload>(f.offerId, owner, f.at)));
  const index = await itemIndex(deps.offers, owner, [...new Set(flights.flatMap((f) => candidateOfferIds(deps.seed, f)))]);
  for (const { item, at } of extras) {
    const offerId = index.get(item.offerItemId!);
    if (!offerId) {
      throw new GatewayError("offer_item_not_found", {
        detail: `OfferItemRefID ${item.offerItemId!.slice(0, 64)} is in no seat or service offer of the flight offers this request books (sell extras with their flight: name its flight items too).`,
        element: `${at}/OfferItemRefID`,
      });
    }
    take(offerId, item, at);
  }
  return [...byOffer.values()];
}

/** The input with an AcceptOrderItemList request's items traced to their offers; any other form as it is. */
export async function withItemList<I extends OrderCreateInput>(input: I, rq: OrderCreateRequest, seller: SellerContext, deps: HandlerDeps): Promise<I> {
  if (rq.selection.form !== "AcceptOrderItemList") return input;
  const ctx = { offers: deps.offers, seed: deps.supply.seed, ownerCode: deps.config.airline.designator };
  return { ...input, selections: await itemListSelections(rq.selection.orderItems, seller, ctx) };
}
