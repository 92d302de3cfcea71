import { GatewayError } from "@ndc/errors";
import { withRetainedNote, cancelItemsQuoteViewOf, cancelQuoteViewOf, decodeOrderReshopRQ, encodeCancelQuoteRS, encodeFlightChangeRS, encodeOrderReshopRS, flightChangeQuoteViewOf, flightsChangeQuoteViewOf, type MessageHandler, type ReshopForm, type SeatAvailabilityView } from "@ndc/messages";
import type { HandlerDeps } from "./deps";
import { seatAvailabilityOf } from "./seat-availability";
import { serviceListOf } from "./service-list";

const ADD = "Request/UpdateOrder/ReshopOrder/ReshopOrderChoice/ServiceOrder/AddOfferItems";

/**
 * OrderReshopRQ (spec 4.7), by request form (docs/servicing.md):
 * - UpdateOrder/CancelOrderRef: a firm quote to cancel the whole order (OrderReshopRS with the
 *   refund and a signed OfferID that OrderChangeRQ AcceptCancelledOffer accepts);
 * - ORDRE2, what a booked order can take, as an a-la-carte offer of the order's own that
 *   OrderChangeRQ buys: extras (ServiceCriteria), narrowed as ServiceListRQ narrows them; or one
 *   seat (OriginDestCriteria + PaxList + SeatCriteria) on that flight for that passenger, if it
 *   is for sale. The listing is ServiceList's and SeatAvailability's (one place each); the
 *   answer is OrderReshopRS with the offer under ReshopResults/ReshopOffers.
 * - a direction's flights replaced (ServiceOrder DeleteOrderItem + AddOfferItems/FlightRequest):
 *   each alternative of that day as a firm, signed offer with the change fee and the amount due
 *   or refunded (servicing/flight); with one OriginDestCriteria per direction, several directions
 *   replaced together, offered as combinations (servicing/flight/combinations.ts).
 * - items cancelled (ServiceOrder DeleteOrderItem alone): a firm quote to cancel those extras,
 *   the same answer as CancelOrderRef's for those items (cancel/items-quote.ts); flight and
 *   bundle items are refused with cancel_items_not_supported (the whole order or a flight change).
 * Other forms are refused with change_not_supported, after the ownership check.
 */
export function orderReshopHandler(deps: HandlerDeps): MessageHandler {
  const services = serviceListOf(deps);
  const seats = seatAvailabilityOf(deps);
  const ownerCode = deps.config.airline.designator;
  return async ({ envelope, seller }) => {
    const rq = decodeOrderReshopRQ(envelope);
    const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
    const order = { orderId: rq.orderId, ownerCode, items: [] };
    if (rq.change.form === "cancelOrder") {
      const { order: booked, quote } = await deps.orders.quoteCancel(rq.orderId, { channel: "seller", seller: owner });
      return { response: encodeCancelQuoteRS(cancelQuoteViewOf(booked, quote, ownerCode)) };
    }
    if (rq.change.form === "cancelItems") {
      const { order: booked, quote } = await deps.orders.quoteCancelItems(rq.orderId, { channel: "seller", seller: owner }, rq.change.orderItemIds, { respend: rq.change.respend });
      return { response: encodeCancelQuoteRS(cancelItemsQuoteViewOf(booked, quote, ownerCode)) };
    }
    if (rq.change.form === "changeFlight") {
      const { orderItemIds, flights, at } = rq.change;
      if (flights.length === 1) {
        const { order: booked, quote } = await deps.orders.quoteFlightChange(rq.orderId, owner, { orderItemIds, ...flights[0]!, at });
        return { response: encodeFlightChangeRS(flightChangeQuoteViewOf(booked, quote, orderItemIds, ownerCode)) };
      }
      // Several directions changed together: one offer per combination, each charged as one change.
      const { order: booked, quote } = await deps.orders.quoteFlightsChange(rq.orderId, owner, flights.map((flight) => ({ orderItemIds, ...flight, at })));
      return { response: encodeFlightChangeRS(flightsChangeQuoteViewOf(booked, quote, orderItemIds, ownerCode)) };
    }
    if (rq.change.form === "addServices") {
      const view = await services.list({ target: { form: "order", order }, serviceCriteria: rq.change.serviceCriteria, passengers: [], preferences: rq.preferences }, owner);
      if (!view.aLaCarteOffer?.items.length) throw new GatewayError("request_invalid", { detail: "No airline extra of the order matches the ServiceCriteria.", element: `${ADD}/OrderCriteria/ServiceCriteria` });
      // The value the order retained (RespendInd) is stated on the offer it pays for.
      const aLaCarteOffer = withRetainedNote(view.aLaCarteOffer, await deps.orders.retrieve(rq.orderId, owner));
      return { response: encodeOrderReshopRS({ orderId: rq.orderId, ownerCode, aLaCarteOffer, dataLists: view.dataLists, processing: view.processing, warnings: view.warnings }) };
    }
    if (rq.change.form === "addSeat") {
      const want = rq.change;
      const booked = await deps.orders.bookedOrder(rq.orderId, owner);
      if (!booked.passengers.some((p) => p.paxId === want.paxId)) throw new GatewayError("request_invalid", { detail: `Passenger ${want.paxId.slice(0, 32)} is not on the order.`, element: `${ADD}/PaxList/Pax/PaxID` });
      const flightKey = booked.journeys.flatMap((j) => j.flightKeys).find((k) => matches(deps, k, want));
      if (!flightKey) throw new GatewayError("request_invalid", { detail: `The order has no flight ${want.flight.origin}-${want.flight.destination} on ${want.flight.departureDate}.`, element: `${ADD}/FlightRequest` });
      const paxSegmentId = `SEG-${flightKey}`;
      const view = await seats.seatMaps({ target: { form: "order", order: { ...order, items: [{ id: "seat", paxIds: [], paxSegmentIds: [paxSegmentId], datedOperatingLegIds: [], serviceIds: [] }] } }, passengers: [], preferences: rq.preferences }, owner);
      const one = oneSeat(view, want);
      return { response: encodeOrderReshopRS({ orderId: rq.orderId, ownerCode, ...one, aLaCarteOffer: withRetainedNote(one.aLaCarteOffer, await deps.orders.retrieve(rq.orderId, owner)) }) };
    }
    // Ownership first: another seller's order must not learn which changes exist for it.
    await deps.orders.retrieve(rq.orderId, owner);
    if (rq.change.form === "deleteItems") throw new GatewayError("cancel_items_not_supported", { detail: "DeleteOrderItem is read under ReshopOrderChoice/ServiceOrder only.", element: "Request/UpdateOrder/ReshopOrder" });
    throw new GatewayError("change_not_supported", {
      detail: `OrderReshopRQ ${rq.change.choice} is not offered here; CancelOrderRef, extras (ServiceCriteria), one seat (SeatCriteria) and a flight change (DeleteOrderItem + FlightRequest) are.`,
      element: "Request/UpdateOrder/ReshopOrder",
    });
  };
}

function matches(deps: HandlerDeps, key: string, want: Extract<ReshopForm, { form: "addSeat" }>): boolean {
  const f = deps.supply.flight(key);
  return !!f && f.origin === want.flight.origin && f.destination === want.flight.destination && f.date === want.flight.departureDate;
}

/** The seat map's offer narrowed to the one seat asked for, for the one passenger: it must be for sale. */
function oneSeat(view: SeatAvailabilityView, want: Extract<ReshopForm, { form: "addSeat" }>): Omit<Parameters<typeof encodeOrderReshopRS>[0], "orderId" | "ownerCode"> {
  const row = view.seatMaps.flatMap((m) => m.cabins.flatMap((c) => c.rows)).find((r) => r.number === want.seat.row);
  const seat = row?.seats.find((s) => s.column === want.seat.column);
  const at = `${ADD}/OrderCriteria/SeatCriteria`;
  if (!seat) throw new GatewayError("seat_not_found", { detail: `Seat ${want.seat.row}${want.seat.column}.`, element: at });
  const item = view.aLaCarteOffer?.items.find((i) => seat.offerItemIds.includes(i.offerItemId));
  if (!item || seat.availability !== "Available") throw new GatewayError("seat_unavailable", { detail: `Seat ${want.seat.row}${want.seat.column}.`, element: at });
  return {
    aLaCarteOffer: { ...view.aLaCarteOffer!, items: [{ ...item, paxIds: [want.paxId] }] },
    dataLists: { ...view.dataLists, passengers: view.dataLists.passengers.filter((p) => p.paxId === want.paxId) },
    processing: view.processing,
    warnings: view.warnings,
  };
}
