import { directionsChanged, type OrderEvent } from "../actor/events";
import type { Order, OrderItem } from "../state";
import { serviceFlightKeys } from "./services";

/**
 * What an airline's revenue accounting is told of its services (ACCSTS, accounting.service_status;
 * docs/notifications.md): a service earned (FLOWN: its flight departed with the order on board;
 * DELIVERED: its partner fulfilled it), or a service that left the order unused (REFUNDED: by a
 * cancellation that gives money back; FORFEITED: by one that gives nothing back, the value kept;
 * EXCHANGED: replaced by a flight change). The money itself is accounting.sales_info's.
 */
export type ServiceStatusCode = "FLOWN" | "DELIVERED" | "REFUNDED" | "FORFEITED" | "EXCHANGED";

export interface ServiceStatusChange {
  code: ServiceStatusCode;
  /**
   * Where the items are read: the order after the write (what was earned), or before it (what
   * left: an items cancellation removes its items, a flight change replaces its flights).
   */
  of: "before" | "after";
  orderItemIds: string[];
  /** A service placed on a flight is reported only when its flight is one of these (none: every service of the items); a service on no flight always is. */
  flightKeys: string[];
  at: number;
}

/** Sold by a partner and fulfilled by it, whatever flight it is placed on. */
const byPartner = (i: OrderItem) => i.kind === "partner_product" || i.kind === "ride";

/** The flights each service of the item is placed on (a flight item: one per flight; another item: its first, if any). */
function flightsOf(order: Order, i: OrderItem): string[] {
  return i.kind === "flight" ? (serviceFlightKeys(order, i) as string[]) : (i.flightKeys ?? []).slice(0, 1);
}

/** The order's flights not recorded as flown: what a cancellation or an exchange can still take back. */
function unflown(order: Order, keys: readonly string[]): string[] {
  const flown = new Set((order.flown ?? []).map((f) => f.flightKey));
  return keys.filter((k) => !flown.has(k));
}

/** Items with a service left to take back: not fulfilled by a partner already, not placed only on flown flights. */
function takenBack(order: Order, items: readonly OrderItem[], keys: readonly string[]): string[] {
  const open = new Set(keys);
  const done = new Set((order.partnerDelivered ?? []).map((d) => d.orderItemId));
  return items
    .filter((i) => !done.has(i.orderItemId))
    .filter((i) => {
      const on = flightsOf(order, i);
      return on.length === 0 || on.some((k) => open.has(k));
    })
    .map((i) => i.orderItemId);
}

/**
 * The service status changes one write of an order records: a pure reading of the events the
 * order actor journals in that write (as salesTransactionOf is), so each change is reported exactly
 * once, with the write; a retried command journals nothing and reports nothing.
 */
export function serviceStatusChangesOf(events: readonly OrderEvent[], before: Order | null, after: Order): ServiceStatusChange[] {
  const changes: ServiceStatusChange[] = [];
  for (const e of events) {
    switch (e.type) {
      case "flights_flown": {
        const keys = new Set(e.flightKeys);
        const items = after.items.filter((i) => !byPartner(i) && flightsOf(after, i).some((k) => keys.has(k)));
        if (items.length) changes.push({ code: "FLOWN", of: "after", orderItemIds: items.map((i) => i.orderItemId), flightKeys: e.flightKeys, at: e.at });
        break;
      }
      case "partner_delivered":
        changes.push({ code: "DELIVERED", of: "after", orderItemIds: e.orderItemIds, flightKeys: [], at: e.at });
        break;
      case "cancelled":
      case "items_cancelled": {
        if (!before) break;
        const keys = unflown(before, before.journeys.flatMap((j) => j.flightKeys));
        const gone = e.type === "cancelled" ? before.items : e.cancellation.items;
        const ids = takenBack(before, gone, keys);
        if (ids.length) changes.push({ code: e.cancellation.refundMinor > 0 ? "REFUNDED" : "FORFEITED", of: "before", orderItemIds: ids, flightKeys: keys, at: e.at });
        break;
      }
      case "flights_changed": {
        // Every direction the change replaced (one, or several changed together).
        const old = directionsChanged(e).flatMap((d) => before?.journeys[d.direction]?.flightKeys ?? []);
        if (!before || !old.length) break;
        const keys = unflown(before, old);
        const open = new Set(keys);
        const items = before.items.filter((i) => !byPartner(i) && flightsOf(before, i).some((k) => open.has(k)));
        if (items.length) changes.push({ code: "EXCHANGED", of: "before", orderItemIds: items.map((i) => i.orderItemId), flightKeys: keys, at: e.at });
        break;
      }
    }
  }
  return changes;
}
