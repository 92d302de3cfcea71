import { encodeOrderSalesInformationNotifRQ, orderServiceStatusOf } from "@ndc/messages";
import { anySubscriber, enqueueToEvery } from "@ndc/notifications";
import { serviceStatusChangesOf, type Order, type OrderDetails, type OrderPersistHook } from "@ndc/orders";
import type { StoreDb } from "@ndc/store";

const EVENT = "accounting.service_status";

/**
 * ACCSTS (spec 1, status change for revenue recognition): the order actor's persist hook that
 * tells the airline's revenue accounting, in the write that records it, of every service earned
 * (flown, delivered by its partner) or gone unused (refunded, forfeited, exchanged), as an
 * IATA_OrderSalesInformationNotifRQ for every subscription naming accounting.service_status
 * (the ndc:accounting grant, checked again at delivery). Each report has its own id, derived from
 * the order's version, so a receiver deduplicates redeliveries and retries on it. Built only when
 * someone subscribes. docs/notifications.md.
 */
export function serviceStatusReporter(carrier: string, detailsIn: (tx: StoreDb, order: Order) => Promise<OrderDetails>): OrderPersistHook {
  return async (tx, { events, before, after }) => {
    const changes = serviceStatusChangesOf(events, before, after);
    if (changes.length === 0 || !(await anySubscriber(tx, EVENT))) return;
    const now = await detailsIn(tx, after);
    const earlier = before && changes.some((c) => c.of === "before") ? await detailsIn(tx, before) : now;
    for (const [n, change] of changes.entries()) {
      const view = orderServiceStatusOf(change.of === "before" ? earlier : now, now, change, carrier, `STS-${after.orderId}-${after.version}-${n + 1}`);
      if (view.items.length === 0) continue;
      await enqueueToEvery(tx, { event: EVENT, orderId: after.orderId, body: encodeOrderSalesInformationNotifRQ(view) }, change.at);
    }
  };
}
