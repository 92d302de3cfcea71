import type { PaymentLeg } from "@ndc/payments";
import { readMaskedDocuments, type IdentityDocumentView } from "@ndc/pii";
import type { Flight } from "@ndc/supply";
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

export async function orderDetails(ctx: OrdersContext, order: Order): Promise<OrderDetails> {
  const [documents, legs] = await Promise.all([readMaskedDocuments(ctx.store.db, order.orderId), ctx.payments.ledger.legs(order.orderId)]);
  const keys = [...new Set(order.journeys.flatMap((j) => j.flightKeys))];
  const flights = keys.flatMap((key) => {
    const flight = ctx.supply.flight(key);
    return flight ? [flight] : [];
  });
  return { order, documents, legs, flights };
}
