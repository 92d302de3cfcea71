import { orderLegs, type PaymentLeg } from "@ndc/payments";
import { readMaskedDocuments, type IdentityDocumentView } from "@ndc/pii";
import type { StoreDb } from "@ndc/store";
import type { Flight, Supply } from "@ndc/supply";
import type { OrdersContext } from "../context";
import type { Order } from "../state";
import { bandAt, outboundDepartureAsUtc, type FeeBand } from "@ndc/supply";
import { conditionsOfOrder, type OrderConditions } from "../conditions/frozen";
import { flownFlightKeys } from "./delivery";
import { retimed, retimeMinutes } from "../operations/schedule-change";
import { flightItemTaxes, type ItemTax } from "./taxes";

const HOUR_MS = 3_600_000;

/**
 * Everything an order's view is built from, read by the domain so that no message handler
 * reads another domain's tables: the order, its identity documents masked (read from the pii
 * store, never from the order, which holds no document), its payment legs (the ledger, not the
 * order, knows brand, last four and PSP reference), and its flights as the schedule has them
 * (a view shows what flies, not what the seller sent), moved by the airline's retimes. A flight
 * the schedule no longer knows is left out.
 */
export interface OrderDetails {
  order: Order;
  documents: IdentityDocumentView[];
  legs: PaymentLeg[];
  flights: Flight[];
  /** Keys of the flights that have flown when this was read: their services are delivered (view/delivery.ts). */
  flown: string[];
  /** Per flight item (by OrderItemID), the taxes inside its price (view/taxes.ts). */
  taxes: Record<string, ItemTax[]>;
  /** The conditions the order is serviced under (frozen, or the current policy with a warning) and the fee band that applies now. */
  servicing: OrderServicing;
  /** Epoch ms: the clock's time these were read at (`flown` and the fee band are as of then). */
  validFrom: number;
  /** Epoch ms: from then on `flown` or the fee band may differ (validUntilOf); absent when neither will change again. */
  validUntil?: number;
}

export interface OrderServicing extends OrderConditions {
  /**
   * The band a change or a cancellation made now falls in (conditions/fee-bands.ts: the same band
   * OrderRulesRS marks and the cancel quote charges), by the outbound's departure read as UTC;
   * absent once departed.
   */
  changeFeeBand?: FeeBand;
}

/** `db`: the read connection, or a write's transaction (the stored view, read/stored-view.ts, sees the rows its write holds). */
export async function orderDetails(ctx: OrdersContext, order: Order, db: StoreDb = ctx.store.db): Promise<OrderDetails> {
  const [documents, legs] = await Promise.all([readMaskedDocuments(db, order.orderId), orderLegs(db, order.orderId)]);
  return detailsAt(ctx.supply, order, documents, legs, ctx.clock.now());
}

/**
 * One version of an order as OrderHistoryRS shows it before or after a change (read/versions.ts):
 * as it was when that version was written (`flown` and the fee band as of then), WITHOUT identity
 * documents (the history omits them, issue 9 item 12) and without payment legs (the ledger keeps
 * only their present state; OrderViewRS PAYSUM shows it).
 */
export function versionDetails(supply: Supply, order: Order): OrderDetails {
  return detailsAt(supply, order, [], [], order.updatedAt);
}

function detailsAt(supply: Supply, order: Order, documents: IdentityDocumentView[], legs: PaymentLeg[], now: number): OrderDetails {
  const flights = flightsOf(supply, order);
  const taxes = taxesOf(order, flights);
  return {
    order,
    documents,
    legs,
    flights,
    // Departed by the (retimed) schedule, or recorded flown (the delivery sweep, the sandbox's fly).
    flown: [...new Set([...flownFlightKeys(flights, now, order.journeys.flatMap((j) => j.flightKeys)), ...(order.flown ?? []).map((f) => f.flightKey)])],
    taxes,
    servicing: servicingOf(order, flights, now),
    validFrom: now,
    ...validUntilOf(order, flights, now),
  };
}

/**
 * The first instant at which what was read at `now` may no longer hold: the next departure of
 * one of the order's flights (its services become delivered) or the next edge of the change-fee
 * bands before the outbound's departure read as UTC (the fee, or changes closing). An edge
 * exactly at `now` counts (the band changes just after it), so such a view is valid for no time.
 * Absent when nothing the view shows changes with time any more.
 */
function validUntilOf(order: Order, flights: readonly Flight[], now: number): { validUntil?: number } {
  const edges = flights.map((f) => f.departureUtcMs);
  const departure = outboundDepartureAsUtc((key) => flights.find((f) => f.key === key), order.journeys);
  if (departure !== undefined) {
    edges.push(...conditionsOfOrder(order).conditions.changeFeeBands.map((b) => departure - b.fromHours * HOUR_MS));
  }
  const next = Math.min(...edges.filter((t) => t >= now));
  return Number.isFinite(next) ? { validUntil: next } : {};
}

/** Per flight item, its taxes: a pure function of the order and its flights, kept with the order like its flights. */
const taxed = new WeakMap<Order, Record<string, ItemTax[]>>();

function taxesOf(order: Order, flights: readonly Flight[]): Record<string, ItemTax[]> {
  let taxes = taxed.get(order);
  if (!taxes) {
    taxes = Object.fromEntries(order.items.filter((it) => it.kind === "flight").map((it) => [it.orderItemId, flightItemTaxes(order, it, flights)]));
    taxed.set(order, taxes);
  }
  return taxes;
}

function servicingOf(order: Order, flights: readonly Flight[], now: number): OrderServicing {
  const conditions = conditionsOfOrder(order);
  const departure = outboundDepartureAsUtc((key) => flights.find((f) => f.key === key), order.journeys);
  if (departure === undefined) return conditions;
  const at = bandAt(conditions.conditions.changeFeeBands, departure, now);
  return at.departed ? conditions : { ...conditions, changeFeeBand: at.band };
}

/**
 * An order's flights, kept per order state object: the schedule is a pure function of the
 * supply's seed and start date, and an actor's state is replaced, never mutated, by every
 * change, so a repeated OrderRetrieveRQ (its view kept encoded at the edge) places no flight
 * again. Kept weakly, like the encoded view: evicting the actor frees it.
 */
const placed = new WeakMap<Supply, WeakMap<Order, Flight[]>>();

function flightsOf(supply: Supply, order: Order): Flight[] {
  let byOrder = placed.get(supply);
  if (!byOrder) placed.set(supply, (byOrder = new WeakMap()));
  let flights = byOrder.get(order);
  if (!flights) {
    const keys = [...new Set(order.journeys.flatMap((j) => j.flightKeys))];
    flights = keys.flatMap((key) => {
      const flight = supply.flight(key);
      // As it flies for this order: the airline's retimes applied (operations/schedule-change.ts).
      return flight ? [retimed(flight, retimeMinutes(order, key))] : [];
    });
    byOrder.set(order, flights);
  }
  return flights;
}
