import { encodeOrderSalesInformationNotifRQ, orderSalesInformationOf } from "@ndc/messages";
import { anySubscriber, enqueueToEvery } from "@ndc/notifications";
import type { SalesReporter } from "@ndc/orders";

const EVENT = "accounting.sales_info";

/**
 * The order domain's sales reporter (OrdersServiceOptions.salesReporter): every money event of
 * every order becomes an IATA_OrderSalesInformationNotifRQ in the outbox, in the write that
 * records the event, for every subscription naming accounting.sales_info (their clients' grant
 * is checked again at delivery). Built only when someone subscribes: the write reads the order's
 * details (its legs, through the same transaction) only then. docs/notifications.md.
 */
export function salesReporter(carrier: string): SalesReporter {
  return async (tx, { order, transaction, details }) => {
    if (!(await anySubscriber(tx, EVENT))) return;
    const body = encodeOrderSalesInformationNotifRQ(orderSalesInformationOf(await details(), transaction, carrier));
    await enqueueToEvery(tx, { event: EVENT, orderId: order.orderId, body }, transaction.at);
  };
}
