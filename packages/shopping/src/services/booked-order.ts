import { GatewayError } from "@ndc/errors";
import type { OrderRef } from "../model";
import type { Supply } from "@ndc/supply";
import type { OfferOwner } from "../offers/repository";
import type { FlightOfferPayload, StoredJourney, StoredPax } from "../offers/payload";
import { ids } from "../common/ids";
import type { FlightOfferContext } from "./flight-offer";
import type { Product } from "./products";

/**
 * What ServiceList needs of a booked order: its flights and passengers. The orders package
 * depends on shopping, so shopping cannot import it; the gateway adapts OrdersService.retrieve
 * (which answers another seller's order as order_not_found) to this shape.
 */
export interface BookedOrder {
  orderId: string;
  /** held_unpaid | held_payment_declined | booked | cancelled | closed */
  state: string;
  currency: string;
  passengers: StoredPax[];
  journeys: Pick<StoredJourney, "paxJourneyId" | "flightKeys" | "brandCode" | "cabin">[];
  /** The order's seat items: which seat of which flight, for whom (SeatAvailabilityRQ marks them). */
  seats?: { orderItemId: string; flightKey: string; seatId: string; paxIds: string[] }[];
}

export type BookedOrderLookup = (orderId: string, owner: OfferOwner) => Promise<BookedOrder>;

/** States whose order can still take extras; a cancelled or closed order has nothing to add to. */
const OPEN_STATES = new Set(["held_unpaid", "held_payment_declined", "booked"]);

/**
 * Resolves the order a booked-order ServiceListRQ names and shapes it as the flight-offer context
 * the listing code already works from. Segment ids are SEG-<flight key>, as AirShopping issued
 * them, so the items refer to the same PaxSegmentIDs the seller saw when it shopped.
 */
export async function bookedOrderContext(
  lookup: BookedOrderLookup | undefined,
  supply: Supply,
  ref: OrderRef,
  owner: OfferOwner,
  now: number,
  element = "Request/ServiceListCoreRequest/OrderRequest/Order/OrderID",
): Promise<{ context: FlightOfferContext; order: BookedOrder }> {
  // Without an order domain (tests of shopping alone) every order is a missing one.
  if (!lookup) throw new GatewayError("order_not_found");
  // Another airline's order is not ours: answered like a missing one, with the same detail.
  if (ref.ownerCode !== supply.carrier.code) throw new GatewayError("order_not_found");
  const order = await lookup(ref.orderId, owner);
  if (!OPEN_STATES.has(order.state)) {
    throw new GatewayError("order_state_invalid", { detail: "The order is cancelled or closed; no extras can be added to it.", element });
  }
  const journeys: StoredJourney[] = order.journeys.map((j) => ({ ...j, paxSegmentIds: j.flightKeys.map((k) => ids.segment(k)) }));
  const payload: FlightOfferPayload = { kind: "flight", currency: order.currency, language: "en", pax: order.passengers, journeys, items: [], totalMinor: 0 };
  const segments = journeys.flatMap((journey) =>
    journey.flightKeys.map((key, i) => {
      const flight = supply.flight(key);
      if (!flight) throw new GatewayError("flight_not_found", { detail: `A flight of order ${ref.orderId.slice(0, 64)} is no longer in the schedule.` });
      return { journey, paxSegmentId: journey.paxSegmentIds[i]!, flight };
    }),
  );
  const context: FlightOfferContext = { offer: { offerId: order.orderId, source: "service_list", owner, createdAt: now, expiresAt: now, payload }, segments };
  return { context, order };
}

/**
 * Spec 4.7: after sale only the airline's own extras (catalogue services and bundles of them)
 * are listed; rides and partner products cannot be added to a booked order (ORDRE2).
 */
export function airlineExtrasOnly(products: readonly Product[]): Product[] {
  return products.filter((p) => p.kind === "service" || p.kind === "bundle");
}
