import { GatewayError } from "@ndc/errors";
import type { StoredOfferItem } from "./payload";

/**
 * One offer item as a request names it (SelectedOfferItem, CreateOrderItem): OfferPriceRQ and
 * OrderCreateRQ both come down to a list of these, checked by the one rule below.
 */
export interface ItemPick {
  offerItemId: string;
  /** PaxRefIDs given with the item; absent where the form has none (CreateOrderItem). */
  paxIds?: readonly string[];
  /** SelectedALaCarteOfferItem/Qty, where the form carries one (absent: 1). */
  qty?: number;
  /** The element naming the item (`.../SelectedOfferItem[2]`); a refusal names its child. */
  at?: string;
}

function refused(detail: string, element: string | undefined): GatewayError {
  return new GatewayError("request_invalid", { detail, ...(element ? { element } : {}) });
}

/**
 * An offer item is priced once for the passengers it is picked for: a flight or priced-offer
 * item at its stored price for all its passengers, an a-la-carte item at its unit price for each
 * passenger named (offers/extra-charge.ts). Naming it again, or for a passenger it was not
 * issued for, would book or price it again: two SelectedOfferItem, two CreateOrderItem or one
 * per passenger multiplied the total and the card capture. Refused
 * instead, across the whole request (an item listed in two offers, as an OfferPrice priced
 * offer keeps its extras' ids, is still one item):
 * - an item named a second time (request_invalid naming that OfferItemRefID);
 * - a PaxRefID the item is not for, or named twice in one item (an a-la-carte item may be for
 *   some of its eligible passengers only: its PaxRefIDs are a subset of what it was issued for);
 * - a seat item for more than one passenger, or with a Qty other than 1: a seat holds one.
 */
export function checkItemPicks(picks: readonly { pick: ItemPick; item: StoredOfferItem }[]): void {
  const named = new Set<string>();
  for (const { pick, item } of picks) {
    const at = pick.at;
    if (named.has(item.offerItemId)) {
      throw refused(`Offer item ${item.offerItemId.slice(0, 64)} is named twice: it is priced once for every passenger it covers.`, at && `${at}/OfferItemRefID`);
    }
    named.add(item.offerItemId);
    const paxIds = pick.paxIds ?? [];
    const given = new Set<string>();
    for (const [j, paxId] of paxIds.entries()) {
      const el = at && `${at}/PaxRefID[${j + 1}]`;
      if (given.has(paxId)) throw refused(`Passenger ${paxId.slice(0, 32)} is named twice for offer item ${item.offerItemId.slice(0, 64)}.`, el);
      if (!item.paxIds.includes(paxId)) throw refused(`Offer item ${item.offerItemId.slice(0, 64)} is not for passenger ${paxId.slice(0, 32)}.`, el);
      if (item.kind === "seat" && j > 0) throw refused(`Seat item ${item.offerItemId.slice(0, 64)} is one seat, for one passenger.`, el);
      given.add(paxId);
    }
    if (item.kind === "seat" && pick.qty !== undefined && pick.qty !== 1) {
      throw refused(`Seat item ${item.offerItemId.slice(0, 64)} is one seat: its Qty is 1.`, at && `${at}/SelectedALaCarteOfferItem/Qty`);
    }
  }
}
