import type { FlightAlternative, Order } from "@ndc/orders";
import { Localiser } from "@ndc/shopping";
import type { PriceView, TaxView } from "../../shopping/shared/view/common";
import type { JourneyView, SegmentView } from "../../shopping/shared/view/data-lists";
import type { Money } from "../../shopping/shared/view/money";
import { segmentOf } from "../order-view/data-lists";

/**
 * The ids a flight-change offer's items carry, the one place they are minted and read: the n-th
 * offer's DeleteOrderItem i is `FC<n>-<i>`, its AddedOfferItem `FC<n>-NEW` (of a change of several
 * directions, one per direction: `FC<n>-NEW<d>`). OrderChangeRQ accepting the offer may name any
 * of them (apps/gateway order-change handler).
 */
export const deletedItemId = (n: number, i: number): string => `FC${n + 1}-${i + 1}`;
export const addedItemId = (n: number, direction?: number): string => `FC${n + 1}-NEW${direction === undefined ? "" : direction + 1}`;
export const FLIGHT_CHANGE_ITEM_ID = /^FC[0-9]{1,3}-([0-9]{1,3}|NEW[0-9]?)$/;

/** The new direction an alternative sells, priced (AddedOfferItem), with what it replaces and costs. */
export interface AddedFlightsView {
  offerItemId: string;
  paxJourney: JourneyView;
  segments: SegmentView[];
  /** One service per passenger on the new journey. */
  services: { serviceId: string; paxId: string }[];
  /** The new fare of the direction, every passenger: base, taxes by code, total (NewPrice). */
  newPrice: PriceView;
  /** The replaced direction as paid (OldPrice). */
  oldPrice: Money;
  /** What this direction's change costs (> 0) or gives back (< 0), its fee included. */
  due: Money;
  /** This direction's change fee. */
  fee: Money;
  /** AddCol: the seller pays `due`; Refund: it is paid back; EvenExchange: nothing moves. */
  differentialTypeCode: "AddCol" | "Refund" | "EvenExchange";
}

/**
 * An alternative as an AddedOfferItem (issue 20 item 7): the journey and flights the change
 * books (read from the supply schedule; names in English, the answer's text being the gateway's),
 * one service per passenger associated with the new PaxJourney, and the new fare per passenger
 * type summed (base and taxes by code, as the domain priced it).
 */
export function addedFlightsOf(order: Order, a: FlightAlternative, direction: { paidMinor: number; feeMinor: number }, offerItemId: string, m: (minor: number) => Money): AddedFlightsView {
  const loc = new Localiser([]);
  const segments = a.journey.segments.map((f) => segmentOf(f, loc));
  const taxes = new Map<string, number>();
  let base = 0;
  for (const p of a.pax) {
    base += p.baseFare.amount * p.count;
    for (const t of p.taxes) taxes.set(t.code, (taxes.get(t.code) ?? 0) + t.amount.amount * p.count);
  }
  const taxViews: TaxView[] = [...taxes].map(([code, minor]) => ({ code, amount: m(minor) }));
  return {
    offerItemId,
    paxJourney: { paxJourneyId: a.journey.id, paxSegmentIds: segments.map((s) => s.paxSegmentId) },
    segments,
    services: order.passengers.map((p) => ({ serviceId: `${offerItemId}-${p.paxId}`, paxId: p.paxId })),
    newPrice: { base: m(base), taxes: taxViews, total: m(a.priceMinor) },
    oldPrice: m(direction.paidMinor),
    due: m(a.dueMinor),
    fee: m(direction.feeMinor),
    differentialTypeCode: a.dueMinor > 0 ? "AddCol" : a.dueMinor < 0 ? "Refund" : "EvenExchange",
  };
}
