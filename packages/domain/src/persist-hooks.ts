import type { GatewayConfig } from "@ndc/config";
import { encodeDeliveredOrder, encodeOrderSnapshot, serviceDeliveryViewOf } from "@ndc/messages";
import { orderNotifications } from "@ndc/notifications";
import type { OrderDetails, Order, OrderPersistHook } from "@ndc/orders";
import type { StoreDb } from "@ndc/store";
import { serviceStatusReporter } from "./service-status-report";

/**
 * What an order's write tells others, in the write itself: sellers' notifications (their bodies
 * read through the write's transaction) and the airline's revenue accounting (ACCSTS). The same
 * in every process, so an order changed by the scheduler app notifies as one changed by a worker.
 */
export function orderPersistHooks(airline: GatewayConfig["airline"], detailsIn: (order: Order, tx: StoreDb) => Promise<OrderDetails>): OrderPersistHook {
  return allHooks(
    orderNotifications(airline.designator, {
      // ServiceDeliveryNotifRQ's Order: the delivered items as ServiceDeliveryRS shows them, read in the write.
      deliveredOrder: async (tx, order, ids) => {
        const view = serviceDeliveryViewOf(await detailsIn(order, tx), { code: airline.designator, name: airline.name });
        const items = view.items.filter((i) => ids.includes(i.orderItemId));
        return items.length ? encodeDeliveredOrder({ ...view, items }) : null;
      },
      // OrderChangeNotifRQ's CurrentOrder: the changed order as OrderViewRS shows it, without identity documents (spec 6).
      currentOrder: async (tx, order) => encodeOrderSnapshot("CurrentOrder", await detailsIn(order, tx), airline.designator),
    }),
    serviceStatusReporter(airline.designator, (tx, order) => detailsIn(order, tx)),
  );
}

/** Several persist hooks as one, run in turn inside the order's write. */
function allHooks(...hooks: OrderPersistHook[]): OrderPersistHook {
  return async (tx, change) => {
    for (const hook of hooks) await hook(tx, change);
  };
}
