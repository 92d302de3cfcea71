import { GatewayError } from "@ndc/errors";
import { describeInstant, type Flight } from "@ndc/supply";
import type { Order, OrderItem, ScheduleChange } from "../state";

const MINUTE_MS = 60_000;

/**
 * ReasonCode pushed with an airline change (docs/notifications.md): where the change came from.
 * Its ChangeTypeCode follows from the kind (@ndc/notifications SCHEDULE_CHANGE_TYPE_CODES).
 */
export const SCHEDULE_CHANGE_REASONS = {
  /** The simulated operations feed (operations/feed.ts). */
  feed: "OPERATIONAL",
  /** A tester's POST /sandbox/orders/{orderId}/schedule-change. */
  sandbox: "SANDBOX_REQUEST",
} as const;

/**
 * The order after a change: a retime is recorded (the times follow from it). A cancelled flight
 * is removed from what the order flies: its services are shown removed (view/delivery.ts,
 * CANCELLED), it never flies, and the order is flagged for re-accommodation. It stays in the
 * journey as booked, so the order keeps one service per flight and its history reads whole.
 */
export function withScheduleChange(order: Order, change: ScheduleChange): Partial<Order> {
  const scheduleChanges = [...(order.scheduleChanges ?? []), change];
  if (change.kind === "retime") return { scheduleChanges };
  return {
    scheduleChanges,
    reaccommodation: { flightKeys: [...(order.reaccommodation?.flightKeys ?? []), change.flightKey], since: order.reaccommodation?.since ?? change.at },
  };
}

/** The order's flights the airline cancelled (removed, awaiting re-accommodation). */
export function cancelledFlightKeys(order: Pick<Order, "reaccommodation">): Set<string> {
  return new Set(order.reaccommodation?.flightKeys ?? []);
}

/**
 * A held order with a flight the airline cancelled is not paid (issue 19 item 2): the seller would
 * pay for a trip that will not fly, and nothing re-accommodates a held order. Checked before the
 * PSP is asked (payment/retry.ts) and again by the actor when the payment commits, so a flight
 * cancelled while the card was being authorised voids the attempt too.
 */
export function refuseIfFlightCancelled(order: Pick<Order, "reaccommodation">): void {
  const keys = order.reaccommodation?.flightKeys ?? [];
  if (keys.length === 0) return;
  throw new GatewayError("order_flight_cancelled", { detail: `The airline cancelled flight ${keys.join(", ")} of this order.`, element: "PaymentFunctions" });
}

/** The flight keys the order still flies: its journeys' flights less those the airline cancelled. */
export function flyingFlightKeys(order: Pick<Order, "journeys" | "reaccommodation">): string[] {
  const cancelled = cancelledFlightKeys(order);
  return [...new Set(order.journeys.flatMap((j) => j.flightKeys))].filter((k) => !cancelled.has(k));
}

/** A partner product or a ride: delivered when its partner fulfils it (view/delivery.ts), as the partner read-back learns. */
export function isPartnerFulfilled(item: Pick<OrderItem, "kind">): boolean {
  return item.kind === "partner_product" || item.kind === "ride";
}

/** Minutes the airline has moved one flight of the order by (retimes add up). */
export function retimeMinutes(order: Pick<Order, "scheduleChanges">, flightKey: string): number {
  return (order.scheduleChanges ?? []).filter((c) => c.kind === "retime" && c.flightKey === flightKey).reduce((n, c) => n + (c.minutes ?? 0), 0);
}

/** The flight as it now flies for this order: departure and arrival moved by its retimes, local times in each airport's zone. */
export function retimed(flight: Flight, minutes: number): Flight {
  if (minutes === 0) return flight;
  const dep = flight.departureUtcMs + minutes * MINUTE_MS;
  const arr = flight.arrivalUtcMs + minutes * MINUTE_MS;
  return { ...flight, departureUtcMs: dep, arrivalUtcMs: arr, departure: describeInstant(flight.departure.timeZone, dep), arrival: describeInstant(flight.arrival.timeZone, arr) };
}

/**
 * How much later the order's travel now ends than its scheduled dates say: its largest retime,
 * never less than zero (late rather than early: a retime earlier keeps documents no shorter).
 * The orders index adds it to the scheduled travel end (persist.ts), which the retention sweep reads.
 */
export function travelEndShiftMs(order: Pick<Order, "scheduleChanges" | "journeys" | "reaccommodation">): number {
  const keys = flyingFlightKeys(order);
  return Math.max(0, ...keys.map((k) => retimeMinutes(order, k))) * MINUTE_MS;
}
