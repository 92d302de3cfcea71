import { GatewayError } from "@ndc/errors";
import { checkItemPicks, type ALaCartePayload, type ItemPick, type OfferPayload, type StoredOfferItem } from "@ndc/shopping";
import type { OrdersContext } from "../../context";
import { charged, pick } from "../../create/resolve";
import { ids } from "../../ids";
import type { Order, OrderItem } from "../../state";
import type { AddInput, ReleasedSeat } from "./input";
import { isQuotePayload } from "./quote";

/** Kinds a booked order never takes (spec 4.7: rides and partner products are not sold post-sale). */
const NOT_POST_SALE = new Set<OrderItem["kind"]>(["ride", "partner_product", "flight"]);

export interface AddResolution {
  items: OrderItem[];
  chargeMinor: number;
  /** The seat form: the seat taken and, when the passenger held one on that flight, the one given up. */
  seat?: { flightKey: string; seatId: string; paxId: string; released?: ReleasedSeat };
}

/**
 * What the change adds, read only from offers the gateway issued to this seller FOR THIS ORDER
 * (an a-la-carte offer whose flight offer is the order): anything else is offer_not_found.
 * Items are priced by the rule OrderCreate prices a-la-carte items with (create/resolve.charged).
 */
export async function resolveAdded(ctx: OrdersContext, order: Order, input: AddInput, changeRef: string): Promise<AddResolution> {
  if (input.selections.length === 0) throw new GatewayError("request_invalid", { detail: "No offer selected.", element: "Request/ChangeOrderChoice" });
  const items: OrderItem[] = [];
  for (const sel of input.selections) {
    if (sel.ownerCode !== ctx.ownerCode) throw new GatewayError("offer_not_found", { detail: `OfferID ${sel.offerId.slice(0, 64)} (OwnerCode ${sel.ownerCode.slice(0, 3)}).`, element: "OwnerCode" });
    const payload = (await ctx.offers.resolve<OfferPayload>(sel.offerId, input.offerOwner)).payload;
    if (payload.kind !== "a_la_carte" || (payload as ALaCartePayload).flightOfferId !== order.orderId) {
      throw new GatewayError("offer_not_found", { detail: `Offer ${sel.offerId.slice(0, 64)} was not issued for order ${order.orderId}: list its extras (ServiceListRQ) or seats (SeatAvailabilityRQ) naming the order.` });
    }
    if (payload.currency !== order.currency) throw new GatewayError("request_invalid", { detail: `Offer ${sel.offerId.slice(0, 64)} is priced in ${payload.currency}; the order is in ${order.currency}.` });
    const picks = pick(payload.items, sel);
    checkItemPicks(picks);
    for (const { pick: p, item } of picks) {
      if (NOT_POST_SALE.has(item.kind)) throw new GatewayError("not_sold_post_sale", { detail: `Offer item ${item.offerItemId.slice(0, 64)} is a ${item.kind.replace("_", " ")}.`, ...(p.at ? { element: p.at } : {}) });
      const charge = isQuotePayload(payload) ? firm(item, p) : charged(payload, p, item);
      for (const paxId of charge.paxIds) {
        if (!order.passengers.some((x) => x.paxId === paxId)) throw new GatewayError("request_invalid", { detail: `Passenger ${paxId.slice(0, 32)} is not on the order.` });
      }
      items.push({
        orderItemId: ids.orderItem(order.orderId, `${changeRef}/${sel.offerId}/${item.offerItemId}`),
        offerId: sel.offerId,
        offerItemId: item.offerItemId,
        kind: item.kind,
        ...charge,
        ...(item.ref ? { ref: item.ref } : {}),
        ...(item.flightKeys ? { flightKeys: item.flightKeys } : {}),
      });
    }
  }
  const chargeMinor = items.reduce((s, i) => s + i.totalMinor, 0);
  const seats = items.filter((i) => i.kind === "seat");
  if (input.form === "services") {
    if (seats.length) throw new GatewayError("request_invalid", { detail: "A seat is bought alone: one seat for one passenger, extras in a separate OrderChangeRQ." });
    return { items, chargeMinor };
  }
  const only = items[0]!;
  if (items.length !== 1 || seats.length !== 1 || only.paxIds.length !== 1 || !only.ref || only.flightKeys?.length !== 1) {
    throw new GatewayError("request_invalid", { detail: "A seat is bought alone: one seat for one passenger on one flight." });
  }
  if (input.seatId && input.seatId !== only.ref) throw new GatewayError("request_invalid", { detail: `SelectedSeat ${input.seatId.slice(0, 4)} is not the seat of offer item ${only.offerItemId.slice(0, 64)} (${only.ref}).`, element: "SelectedSeat" });
  const flightKey = only.flightKeys[0]!;
  const paxId = only.paxIds[0]!;
  return { items, chargeMinor, seat: { flightKey, seatId: only.ref, paxId, released: heldSeat(order, flightKey, paxId, only.ref) } };
}

/**
 * The seat this passenger holds on this flight, if any: a seat change gives it up. A seat booked
 * in one hold with other passengers' seats is given up alone: the others are named `kept`, to
 * stay sold under a hold of their own in the same seat-actor decision (the commit write).
 */
function heldSeat(order: Order, flightKey: string, paxId: string, newSeatId: string): ReleasedSeat | undefined {
  const old = order.items.find((i) => i.kind === "seat" && i.flightKeys?.[0] === flightKey && i.paxIds.length === 1 && i.paxIds[0] === paxId);
  if (!old?.ref) return undefined;
  if (old.ref === newSeatId) throw new GatewayError("request_invalid", { detail: `Passenger ${paxId.slice(0, 32)} already holds seat ${newSeatId} on this flight.` });
  const hold = order.seatHolds.find((h) => h.flightKey === flightKey && h.seatIds.includes(old.ref!));
  if (!hold) throw new GatewayError("order_state_invalid", { detail: `Seat ${old.ref} has no hold on the order.` });
  const kept = hold.seatIds.filter((s) => s !== old.ref);
  return { orderItemId: old.orderItemId, holdId: hold.holdId, seatId: old.ref, flightKey, ...(kept.length ? { keptSeatIds: kept } : {}) };
}

/** A quoted item is charged as quoted: for the passengers and quantity of the quote, never repriced. */
function firm(item: StoredOfferItem, p: ItemPick): Pick<OrderItem, "paxIds" | "totalMinor" | "qty"> {
  const samePax = !p.paxIds?.length || [...p.paxIds].sort().join() === [...item.paxIds].sort().join();
  if (!samePax || (p.qty ?? 1) !== (item.qty ?? 1)) {
    throw new GatewayError("request_invalid", { detail: `Quote item ${item.offerItemId.slice(0, 64)} was quoted for ${item.paxIds.join(", ")}, quantity ${item.qty ?? 1}; accept it as quoted.`, ...(p.at ? { element: p.at } : {}) });
  }
  return { paxIds: item.paxIds, totalMinor: item.totalMinor, ...(item.qty ? { qty: item.qty } : {}) };
}
