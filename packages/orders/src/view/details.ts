import { orderLegs, type PaymentLeg } from "@ndc/payments";
import { readMaskedDocuments, type IdentityDocumentView } from "@ndc/pii";
import type { StoreDb } from "@ndc/store";
import type { Flight, Supply } from "@ndc/supply";
import type { OrdersContext } from "../context";
import type { Order } from "../state";

/**
 * Everything an order's view is built from, read by the domain so that no message handler
 * reads another domain's tables: the order, its identity documents masked (read from the pii
 * store, never from the order, which holds no document), its payment legs (the ledger, not the
 * order, knows brand, last four and PSP reference), and its flights as the schedule has them
 * (a view shows what flies, not what the seller sent). A flight the schedule no longer knows is
 * left out.
 */
export interface OrderDetails {
  order: Order;
  documents: IdentityDocumentView[];
  legs: PaymentLeg[];
  flights: Flight[];
}

/** `db`: the read connection, or a write's transaction (the stored view, read/stored-view.ts, sees the rows its write holds). */
export async function orderDetails(ctx: OrdersContext, order: Order, db: StoreDb = ctx.store.db): Promise<OrderDetails> {
  const [documents, legs] = await Promise.all([readMaskedDocuments(db, order.orderId), orderLegs(db, order.orderId)]);
  return { order, documents, legs, flights: flightsOf(ctx.supply, order) };
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
      return flight ? [flight] : [];
    });
    byOrder.set(order, flights);
  }
  return flights;
}
