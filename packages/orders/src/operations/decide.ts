import { GatewayError } from "@ndc/errors";
import type { OrderEvent } from "../actor/events";
import type { Order, ScheduleChange } from "../state";
import { flyingFlightKeys, isPartnerFulfilled } from "./schedule-change";

const OPEN = ["booked", "held_unpaid", "held_payment_declined"];

/**
 * Airline changes of the order's flights, decided together (one write, one notification). A repeat
 * (same ref) or a flight the order no longer holds (replaced, cancelled, already flown) changes
 * nothing; a cancelled or closed order is refused.
 */
export function decideScheduleChange(order: Order, changes: readonly Omit<ScheduleChange, "at">[], now: number): OrderEvent[] {
  const fresh = changes.filter((change) => !order.scheduleChanges?.some((c) => c.ref === change.ref));
  if (fresh.length === 0) return [];
  if (!OPEN.includes(order.state)) throw new GatewayError("order_state_invalid", { detail: `The order is ${order.state}; only an open order's flights are changed.` });
  const flown = new Set((order.flown ?? []).map((f) => f.flightKey));
  let keys = new Set(flyingFlightKeys(order));
  const events: OrderEvent[] = [];
  for (const change of fresh) {
    if (!keys.has(change.flightKey) || flown.has(change.flightKey)) continue;
    if (change.kind === "cancel") keys = new Set([...keys].filter((k) => k !== change.flightKey));
    events.push({ type: "schedule_changed", at: now, change: { ...change, at: now } });
  }
  return events;
}

/** Departed flights of a booked order not recorded yet; nothing on another state. */
export function decideFlown(order: Order, flightKeys: readonly string[], now: number): OrderEvent[] {
  if (order.state !== "booked") return [];
  const mine = new Set(flyingFlightKeys(order));
  const done = new Set((order.flown ?? []).map((f) => f.flightKey));
  const fresh = [...new Set(flightKeys)].filter((k) => mine.has(k) && !done.has(k));
  return fresh.length ? [{ type: "flights_flown", at: now, flightKeys: fresh }] : [];
}

/** Partner products and rides of a booked order their partner fulfilled, not recorded yet. */
export function decidePartnerDelivered(order: Order, orderItemIds: readonly string[], now: number): OrderEvent[] {
  if (order.state !== "booked") return [];
  const done = new Set((order.partnerDelivered ?? []).map((d) => d.orderItemId));
  const fresh = [...new Set(orderItemIds)].filter((id) => !done.has(id) && order.items.some((i) => i.orderItemId === id && isPartnerFulfilled(i)));
  return fresh.length ? [{ type: "partner_delivered", at: now, orderItemIds: fresh }] : [];
}
