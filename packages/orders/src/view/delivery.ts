import type { Flight } from "@ndc/supply";
import type { Order, OrderItem } from "../state";

/**
 * The delivery state of one service of an order (spec 3, ServiceDeliveryRQ in 4.7): a service
 * with no ticket or EMD behind it is delivered when its flight flies (the flight, a seat sold for
 * nothing, an airline extra); a partner product or ride when its partner fulfils it. One rule for
 * OrderViewRS's DeliveryStatusCode and ServiceDeliveryRS (docs/servicing.md).
 */
export type DeliveryStatusCode = "DELIVERED" | "NOT_DELIVERED" | "AWAITING_PAYMENT" | "AWAITING_PARTNER" | "CANCELLED";

export interface ServiceDeliveryState {
  code: DeliveryStatusCode;
  /** Composed English (spec 4.8 rule 2). */
  text: string;
}

const DAY_MS = 86_400_000;

/**
 * The order's flights that have flown by `now`: each flight the schedule places that has departed
 * (in real UTC), and each of `keys` the schedule no longer places because its date is before the
 * schedule's first day (a gateway started on a later day sells from that day on). Such a flight
 * is counted as flown once its local date is two UTC days back, which no time zone's departure
 * can outlast; without this an order's past flights read as never flown after a restart, and the
 * order could never close.
 */
export function flownFlightKeys(flights: readonly Flight[], now: number, keys: readonly string[] = []): string[] {
  const placed = new Set(flights.map((f) => f.key));
  const twoDaysBack = new Date(now - 2 * DAY_MS).toISOString().slice(0, 10);
  const unplaced = keys.filter((k) => !placed.has(k) && k.slice(-10) <= twoDaysBack);
  return [...flights.filter((f) => f.departureUtcMs <= now).map((f) => f.key), ...unplaced];
}

/** `flightKey`: the flight the service is for (a flight item has one service per flight); else the item's first, else the order's. */
export function deliveryStateOf(order: Pick<Order, "state" | "journeys" | "partnerDelivered" | "reaccommodation">, item: OrderItem, flightKey: string | undefined, flown: ReadonlySet<string>): ServiceDeliveryState {
  if (order.state === "cancelled") return { code: "CANCELLED", text: "Not delivered: the order is cancelled." };
  if (order.state === "held_unpaid" || order.state === "held_payment_declined") return { code: "AWAITING_PAYMENT", text: "Not delivered: the order is held until it is paid." };
  if (item.kind === "partner_product" || item.kind === "ride") {
    // Partners report fulfilment: the read-back records it on the order (operations/partner-read-back.ts).
    const done = order.partnerDelivered?.find((d) => d.orderItemId === item.orderItemId);
    if (done) return { code: "DELIVERED", text: `Delivered: the partner reported it fulfilled at ${new Date(done.at).toISOString()}.` };
    return { code: "AWAITING_PARTNER", text: "Delivered when the partner fulfils it; no fulfilment has been reported." };
  }
  const key = flightKey ?? item.flightKeys?.[0] ?? order.journeys[0]?.flightKeys[0];
  // Removed: the airline cancelled its flight (operations/schedule-change.ts); the order awaits re-accommodation.
  if (key && order.reaccommodation?.flightKeys.includes(key)) return { code: "CANCELLED", text: `Not delivered: the airline cancelled flight ${key}; the order awaits re-accommodation.` };
  if (key && flown.has(key)) return { code: "DELIVERED", text: `Delivered: flight ${key} has flown.` };
  return { code: "NOT_DELIVERED", text: key ? `Delivered when flight ${key} flies.` : "Delivered when its flight flies." };
}
